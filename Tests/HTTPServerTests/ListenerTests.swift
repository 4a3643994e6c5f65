import Glibc
import Synchronization
import Testing

@testable import HTTPServer

@Test(.timeLimit(.minutes(1))) func portZeroBindsAFreePortSharedByEveryAddress() throws {
    try withServer(addresses: ["127.0.0.1", "::1"]) { server in
        #expect(server.port != 0)
        #expect(server.boundAddresses == ["127.0.0.1", "::1"])
        for host in ["127.0.0.1", "::1"] {
            let client = try TestClient(port: server.port, host: host)
            try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(try client.response().status == 200, "\(host)")
        }
    }
}

@Test(.timeLimit(.minutes(1))) func ipv6ClientSeesItsOwnAddress() throws {
    let handler = ClosureHandler { request, _ in
        HTTPResponse(status: 200, text: "\(request.remoteAddress) \(request.isLoopback) \(request.host ?? "-")")
    }
    try withServer(addresses: ["::1"], handler: handler) { server in
        let client = try TestClient(port: server.port, host: "::1")
        try client.send("GET / HTTP/1.1\r\nHost: [::1]:\(server.port)\r\n\r\n")
        #expect(try client.response().text == "::1 true [::1]")
    }
}

@Test(.timeLimit(.minutes(1))) func allAddressesAcceptIPv4AsMappedAddresses() throws {
    let handler = ClosureHandler { request, _ in HTTPResponse(status: 200, text: request.remoteAddress) }
    try withServer(addresses: [], handler: handler) { server in
        let client = try TestClient(port: server.port, host: "127.0.0.1")
        try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try client.response().text == "127.0.0.1")
    }
}

@Test(.timeLimit(.minutes(1))) func busyPortIsAddressInUse() throws {
    try withServer { server in
        let second = HTTPServer(
            configuration: HTTPServerConfiguration(addresses: ["127.0.0.1"], port: server.port), handler: echoHandler)
        #expect(throws: HTTPServerError.addressInUse(port: server.port)) { try second.start() }
    }
}

@Test(.timeLimit(.minutes(1))) func invalidAddressIsRejected() {
    let server = HTTPServer(
        configuration: HTTPServerConfiguration(addresses: ["printer.local"], port: 0), handler: echoHandler)
    #expect(throws: HTTPServerError.invalidAddress("printer.local")) { try server.start() }
}

@Test(.timeLimit(.minutes(1))) func stopClosesIdleConnectionsAndFreesThePort() throws {
    let server = HTTPServer(
        configuration: HTTPServerConfiguration(addresses: ["127.0.0.1"], port: 0), handler: echoHandler)
    try server.start()
    let port = server.port
    let client = try TestClient(port: port)
    try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
    #expect(try client.response().status == 200)
    server.stop()
    #expect(try client.isClosed())
    let again = HTTPServer(
        configuration: HTTPServerConfiguration(addresses: ["127.0.0.1"], port: port), handler: echoHandler)
    try again.start()
    again.stop()
}

@Test(.timeLimit(.minutes(1))) func errorsDescribeThemselvesForPeople() {
    #expect(HTTPServerError.addressInUse(port: 631).description == "port 631 is already in use")
    #expect(HTTPServerError.system(call: "bind", errno: EACCES).description.contains("Permission denied"))
}

@Test(.timeLimit(.minutes(1))) func stopReturnsAfterTheGracePeriodWhileAHandlerIsStillBusy() throws {
    let release = Atomic<Bool>(false)
    let entered = Atomic<Bool>(false)
    let handler = ClosureHandler { _, _ in
        entered.store(true, ordering: .releasing)
        while !release.load(ordering: .acquiring) { Syscall.sleep(for: .milliseconds(5)) }
        return HTTPResponse(status: 200, text: "late")
    }
    let server = HTTPServer(configuration: HTTPServerConfiguration(addresses: ["127.0.0.1"], port: 0), handler: handler)
    try server.start()
    let client = try TestClient(port: server.port)
    try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
    while !entered.load(ordering: .acquiring) { Syscall.sleep(for: .milliseconds(5)) }
    server.stop()
    release.store(true, ordering: .releasing)
    let response = try client.response()
    #expect(response.text == "late")
    #expect(response.headers["Connection"] == "close")
}
