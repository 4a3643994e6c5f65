// DNSSD module; see DESIGN.md.
