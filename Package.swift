// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "vprinter",
    products: [
        .executable(name: "vprinter", targets: ["vprinter"]),
        .executable(name: "vprinter-render", targets: ["vprinter-render"]),
        .library(name: "VirtualPrinterKit", targets: ["VirtualPrinterKit"]),
    ],
    targets: [
        // System libraries, each reached through one Swift owner.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CAvahi", pkgConfig: "avahi-client", providers: [.apt(["libavahi-client-dev"])]),
        .systemLibrary(name: "CPoppler", pkgConfig: "poppler-glib", providers: [.apt(["libpoppler-glib-dev"])]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        // Headers only: the render worker loads libtesseract with dlopen on its first OCR request.
        .systemLibrary(name: "CTesseract", providers: [.apt(["libtesseract-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),

        // The layers of DESIGN.md.
        .target(name: "IPP"),
        // The print vocabulary both processes share: job ticket, document formats and the one detector, printed
        // sides and their facts, the render protocol's messages, the job record. Pure: no C library, no socket.
        .target(name: "PrintModel"),
        .target(name: "RequestJournal", dependencies: ["IPP", "PrintModel"]),
        .target(name: "HTTPServer", dependencies: ["COpenSSL"]),
        .target(
            name: "Rasterizer",
            dependencies: [
                "PrintModel", "CPoppler", "CCairo", "CJPEG", "CPNG", "CZlib", "ImageCheck", "CTesseract", "CLCMS2",
            ],
            swiftSettings: optimizedInDebugBuilds),
        // Page images on libpng alone: comparison (vprinter compare) and the facts of a printed side.
        .target(name: "ImageCheck", dependencies: ["PrintModel", "CPNG"], swiftSettings: optimizedInDebugBuilds),
        .target(name: "DNSSD", dependencies: ["CAvahi"]),
        // The eSCL scanner's vocabulary: capabilities, scan settings read from a client's XML, scan jobs, the
        // ScannerCapabilities and ScannerStatus documents. Pure.
        .target(name: "Scanner", dependencies: ["PrintModel"]),
        // Printer profiles: the profile files and their JSON, extends, media, the IPP attributes a profile gives,
        // the ipptool --ippserver attribute file format.
        .target(name: "Profiles", dependencies: ["IPP", "PrintModel"]),
        // The printer: jobs, operations, states, subscriptions, faults, cloning, the one place that builds a printer.
        .target(
            name: "PrinterCore",
            dependencies: ["IPP", "PrintModel", "Profiles", "HTTPServer", "CZlib", "ImageCheck", "Scanner"]),
        // What the printer serves over HTTP: IPP, the JSON API, the web page, health and metrics, the System Service.
        .target(
            name: "PrinterHTTP",
            dependencies: [
                "PrinterCore", "Profiles", "IPP", "PrintModel", "HTTPServer", "ImageCheck", "RequestJournal", "Scanner",
            ]),
        // The library product: a printer in a Swift test (EmbeddedPrinter) and golden-file comparison.
        .target(
            name: "VirtualPrinterKit",
            dependencies: [
                "PrinterCore", "PrinterHTTP", "Profiles", "IPP", "PrintModel", "HTTPServer", "ImageCheck",
                "RequestJournal",
            ]),
        .executableTarget(name: "vprinter-render", dependencies: ["PrintModel", "Rasterizer"]),
        .executableTarget(
            name: "vprinter",
            dependencies: [
                "PrinterCore", "PrinterHTTP", "Profiles", "VirtualPrinterKit", "PrintModel", "HTTPServer", "DNSSD",
                "IPP", "RequestJournal", "Scanner",
            ]),

        // What the tests share: starting programs so that no test can hang on one (Tests/TestSupport).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "IPPTests", dependencies: ["IPP"], resources: [.copy("Fixtures")]),
        .testTarget(name: "PrintModelTests", dependencies: ["PrintModel"]),
        .testTarget(name: "RequestJournalTests", dependencies: ["RequestJournal", "IPP", "PrintModel"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "COpenSSL"]),
        .testTarget(name: "RasterizerTests", dependencies: ["Rasterizer", "PrintModel", "ImageCheck", "TestSupport"]),
        .testTarget(name: "ImageCheckTests", dependencies: ["ImageCheck", "PrintModel"], exclude: ["Fixtures"]),
        .testTarget(name: "ScannerTests", dependencies: ["Scanner", "PrintModel"]),
        .testTarget(name: "DNSSDTests", dependencies: ["DNSSD", "TestSupport"]),
        .testTarget(
            name: "VirtualPrinterTests",
            dependencies: [
                "PrinterCore", "PrinterHTTP", "Profiles", "VirtualPrinterKit", "PrintModel", "IPP", "HTTPServer",
                "TestSupport", "Scanner",
            ]),
        .testTarget(
            name: "EndToEndTests",
            // vprinter itself for its option table (ManPageTests.swift); the other tests run its binary.
            dependencies: ["IPP", "PrintModel", "PrinterCore", "VirtualPrinterKit", "TestSupport", "vprinter"]),
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

/// The pixel loops of rendering and comparing, optimized in debug builds too: the test command renders thousands of
/// pages with the debug build, eight times slower unoptimized (docs/testing.md "Build").
var optimizedInDebugBuilds: [SwiftSetting] { [.unsafeFlags(["-O"], .when(configuration: .debug))] }
