print("vprinter")
