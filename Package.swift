// swift-tools-version: 6.1
//
// The Concord package. The module layout is ARCHITECTURE.md's map: a pure core (`Concord`), its
// test support (`ConcordTesting`), JSON, the log, the wire protocol, what an app is (`ConcordApp`)
// and how its state is rebuilt from its log (`ConcordReplay`), the daemon runtime, the client,
// the window without a terminal (`ConcordWindow`) and on one (`ConcordTerminal`), the command
// line of any app (`ConcordCommandLine`), the Workspace app, and two thin executables
// (`concordd` in daemon/, `concord` in cli/).
import PackageDescription

let package = Package(
  name: "Concord",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "Concord", targets: ["Concord"]),
    .library(name: "ConcordTesting", targets: ["ConcordTesting"]),
    .library(name: "ConcordLog", targets: ["ConcordLog"]),
    .library(name: "ConcordWire", targets: ["ConcordWire"]),
    .library(name: "ConcordApp", targets: ["ConcordApp"]),
    .library(name: "ConcordReplay", targets: ["ConcordReplay"]),
    .library(name: "ConcordServer", targets: ["ConcordServer"]),
    .library(name: "ConcordClient", targets: ["ConcordClient"]),
    .library(name: "ConcordWindow", targets: ["ConcordWindow"]),
    .library(name: "ConcordCommandLine", targets: ["ConcordCommandLine", "ConcordDaemonCommand"]),
    .library(name: "Workspace", targets: ["Workspace", "WorkspaceWindows"]),
    .executable(name: "concordd", targets: ["concordd"]),
    .executable(name: "concord", targets: ["concord"]),
    .executable(name: "concord-example", targets: ["CounterApp"]),
    .executable(name: "concord-bench", targets: ["ConcordBenchmarks"]),
    .executable(name: "concord-log-bench", targets: ["LogBenchmarks"]),
    .executable(name: "concord-daemon-bench", targets: ["DaemonBenchmarks"]),
    .executable(name: "concord-window-bench", targets: ["WindowBenchmarks"]),
    .executable(name: "concord-prove", targets: ["ProofSuites"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/pointfreeco/swift-case-paths", from: "1.10.0"),
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
    .package(url: "https://github.com/pointfreeco/swift-identified-collections", from: "1.1.1"),
    .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
    // `swift package generate-documentation`: the API documentation (scripts/docs.sh).
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
  ],
  targets: [
    // The core: reducers, effects, the Store actor, composition, automata, history. No I/O.
    .target(
      name: "Concord",
      dependencies: [
        .product(name: "CasePaths", package: "swift-case-paths"),
        .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
        .product(name: "OrderedCollections", package: "swift-collections"),
        .product(name: "DequeModule", package: "swift-collections"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
      ]
    ),
    // Exhaustive testing of features built on the core.
    .target(
      name: "ConcordTesting",
      dependencies: [
        "Concord",
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
        // Routes reported issues to Swift Testing and XCTest; without it they are only printed.
        .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
      ]
    ),
    .systemLibrary(
      name: "CSodium",
      pkgConfig: "libsodium",
      providers: [.apt(["libsodium-dev"]), .brew(["libsodium"])]
    ),
    // The SQL of the log database, kept as plain files in schema/ and embedded in the binary.
    .target(
      name: "ConcordSchema",
      path: "schema",
      exclude: [
        "audit-export.schema.json", "wire-protocol.schema.json", "workspace.schema.json", "sample-app.schema.json",
      ],
      sources: ["LogSchema.swift"],
      resources: [.embedInCode("log/v1-initial.sql")]
    ),
    // The machine under every program: where a home's files are (`ConcordHome`), accounts, Unix
    // sockets and who is at their other end (`PeerCredentials`). No app, log or wire.
    .target(name: "ConcordPlatform"),
    // JSON as the wire and the audit export read it: one strict parser (exact integers, no member
    // named twice), one writer, and one spelling of text (NFC).
    .target(name: "ConcordJSON"),
    .target(
      name: "ConcordLog",
      dependencies: [
        "CSodium", "ConcordSchema", "ConcordJSON", .product(name: "GRDB", package: "GRDB.swift"),
        // SQLite's own column readers, for the walk over every entry (`ActionLog+Read`).
        .product(name: "GRDBSQLite", package: "GRDB.swift"),
      ]
    ),
    // The wire protocol: messages, line framing, state diffs. No NIO: the daemon frames its
    // channel with LineFraming in ConcordServer.
    .target(name: "ConcordWire", dependencies: ["ConcordJSON"]),
    // What an app is: the hosted description (state, reducer, scopes, lifecycle, migrations, how
    // one logged action replays) and how windows show and type its scopes. No I/O.
    .target(name: "ConcordApp", dependencies: ["Concord", "ConcordText", "ConcordWire"]),
    // Text as a terminal shows it: a character's cells (`DisplayWidth`) and fitting text to a
    // width (`TextFit`). ConcordApp re-exports it for the apps' renderers.
    .target(name: "ConcordText", dependencies: ["CCellWidth"]),
    // The full-screen terminal: ncursesw, wide characters and keys.
    // No pkg-config: its flags (-D_XOPEN_SOURCE=600) are refused in a package that depends on
    // this one; the shim defines what the wide-character calls need, and the module map links.
    .systemLibrary(name: "CNcurses", providers: [.apt(["libncurses-dev"])]),
    // A window without a terminal: keys, the command line's editor, scrolling, styled lines, and
    // the full-screen window as a state machine (`WindowModel`: events in, a frame and commands
    // out). No I/O.
    .target(name: "ConcordWindow", dependencies: ["ConcordApp", "ConcordClient", "ConcordJSON", "ConcordLog", "ConcordReplay", "ConcordWire"]),
    // The terminal under a window: ncurses draws a window's frame and reads its keys.
    .target(name: "ConcordTerminal", dependencies: ["CNcurses", "ConcordText", "ConcordWindow"]),
    // A character's terminal cells by the C library's wcwidth, in a UTF-8 locale whatever the
    // process's own.
    .target(name: "CCellWidth"),
    // An app's state rebuilt from its log: the daemon's boot and `concord state --at`.
    .target(
      name: "ConcordReplay",
      dependencies: ["Concord", "ConcordApp", "ConcordJSON", "ConcordLog", "ConcordWire", .product(name: "Logging", package: "swift-log")]
    ),
    // The daemon runtime: hosts any app's reducer, keeps its log, serves its scopes to windows.
    .target(
      name: "ConcordServer",
      dependencies: ["ConcordPlatform", 
        "Concord", "ConcordApp", "ConcordReplay", "ConcordWire", "ConcordLog",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ]
    ),
    // The client side: the connection, the offline outbox and the last states seen.
    .target(
      name: "ConcordClient",
      dependencies: ["ConcordPlatform", "ConcordApp", "ConcordWire", "ConcordLog", .product(name: "GRDB", package: "GRDB.swift")]
    ),
    // The relay between many windows and one ssh: the laptop's `concord relay` (`Relay`), the
    // server's end (`MuxServer`, `StreamRelay` under `dial-stdio`) and the frames between them.
    .target(name: "ConcordRelay", dependencies: ["ConcordClient", "ConcordPlatform", "ConcordWire"]),
    // The bundled app: a collaborative task board with chat, presence and reminders.
    .target(
      name: "Workspace",
      dependencies: [
        "Concord", "ConcordApp", "ConcordWire",
        .product(name: "CasePaths", package: "swift-case-paths"),
        .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
      ]
    ),
    // How windows show Workspace and read what people type there: its renderers, words and due
    // dates. The app's domain (Workspace) knows nothing of them.
    .target(
      name: "WorkspaceWindows",
      dependencies: [
        "Workspace", "ConcordApp", "ConcordJSON", "ConcordWire",
        .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
      ]
    ),
    // The daemon as a program, for any app: `daemon run`'s options (`DaemonProgram`), the apps a
    // program speaks (`ProgramApp`), and the exit codes every command keeps. No terminal and no
    // client: what `concordd` links.
    .target(
      name: "ConcordDaemonCommand",
      dependencies: ["ConcordPlatform", 
        "ConcordApp", "ConcordLog", "ConcordReplay", "ConcordServer", "ConcordWire",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ]
    ),
    // Everything `concord` and `concordd` do, for any app: the daemon, windows, send, state,
    // words, the log, the outbox and SSH, as one program (`ConcordProgram`).
    .target(
      name: "ConcordCommandLine",
      dependencies: [
        "ConcordPlatform", "ConcordApp", "ConcordClient", "ConcordDaemonCommand", "ConcordJSON", "ConcordLog", "ConcordRelay",
        "ConcordReplay", "ConcordTerminal", "ConcordWindow", "ConcordWire",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // The apps `concord` and `concordd` speak: Workspace and the sample app.
    .target(name: "BundledApps", dependencies: ["ConcordDaemonCommand", "SampleApp", "Workspace", "WorkspaceWindows"]),
    .executableTarget(
      name: "concordd",
      dependencies: ["BundledApps", "ConcordDaemonCommand"],
      path: "daemon",
      // The systemd user unit shipped beside the daemon's source (DaemonUnitTests reads it).
      exclude: ["concordd.service"]
    ),
    .executableTarget(name: "concord", dependencies: ["BundledApps", "ConcordCommandLine"], path: "cli"),
    // A small app the daemon hosts for its end-to-end tests (`concordd --app sample`).
    .target(name: "SampleApp", dependencies: ["Concord", "ConcordApp", "ConcordWire"], path: "Examples/SampleApp"),
    // A small composed app that runs in the terminal: the README's first command.
    .executableTarget(
      name: "CounterApp",
      dependencies: ["Concord"],
      path: "Examples/CounterApp"
    ),
    // Throughput benchmarks of the core against plain-actor baselines (run on demand).
    .executableTarget(
      name: "ConcordBenchmarks",
      dependencies: ["Concord"],
      path: "Benchmarks/ConcordBenchmarks"
    ),
    // What a window spends redrawing a big board or channel (on demand).
    .executableTarget(
      name: "WindowBenchmarks",
      dependencies: ["ConcordPlatform", "Concord", "ConcordApp", "ConcordClient", "ConcordLog", "ConcordTerminal", "ConcordWindow", "ConcordWire", "Workspace", "WorkspaceWindows"],
      path: "Benchmarks/WindowBenchmarks"
    ),
    // Throughput of the action log against plain SQLite with the same durability (on demand).
    .executableTarget(
      name: "LogBenchmarks",
      dependencies: ["ConcordLog", "PropertyRandom", .product(name: "GRDB", package: "GRDB.swift")],
      path: "Benchmarks/LogBenchmarks"
    ),
    // Starts a built `concordd` and drives it over raw sockets: shared by the daemon benchmark
    // and the proof suites.
    .target(name: "DaemonDriving", dependencies: ["ConcordPlatform", "ConcordClient", "ConcordLog", "ConcordWire"], path: "Tools/DaemonDriving"),
    // The daemon's durable path against Redis and the C reference daemon, in one run (on demand).
    .executableTarget(
      name: "DaemonBenchmarks",
      dependencies: ["ConcordPlatform", "ConcordApp", "ConcordLog", "ConcordClient", "ConcordReplay", "DaemonDriving", "SampleApp"],
      path: "Benchmarks/DaemonBenchmarks"
    ),
    // The long suites that prove the guarantees: crash, fault, soak and hostile peers (on demand).
    .executableTarget(
      name: "ProofSuites",
      dependencies: ["ConcordPlatform", 
        "ConcordLog", "ConcordClient", "ConcordWire", "DaemonDriving", "PropertyRandom",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "GRDB", package: "GRDB.swift"),
      ],
      path: "Proofs"
    ),
    // The sample app as a program of its own with generic windows, for the end-to-end tests.
    .executableTarget(name: "generic-sample", dependencies: ["ConcordCommandLine", "SampleApp"], path: "Tests/GenericSample"),
    // Seeded randomness shared by the property tests and the proof suites: a seed replays a case.
    .target(name: "PropertyRandom", path: "Tests/PropertyRandom"),
    .testTarget(
      name: "ConcordTests",
      dependencies: [
        "Concord",
        "ConcordTesting",
        "PropertyRandom",
        .product(name: "Clocks", package: "swift-clocks"),
      ]
    ),
    .testTarget(
      name: "ConcordServerTests",
      dependencies: ["ConcordPlatform", 
        "Concord", "ConcordTesting", "ConcordApp", "ConcordReplay", "ConcordServer", "ConcordWire", "ConcordLog",
        "ConcordClient", "SampleApp",
        "Workspace", "WorkspaceWindows", "PropertyRandom",
        "DaemonDriving", .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "CasePaths", package: "swift-case-paths"),
        .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
      ],
      // The independent peers written from the published schemas, run by WireContractTests
      // and AppSchemaTests.
      exclude: ["wire_contract_peer.py", "app_schema_peer.py"]
    ),
    // An app's state rebuilt from its log: the daemon's boots, and logs written by earlier
    // builds (Fixtures) read by this one.
    .testTarget(
      name: "ConcordReplayTests",
      dependencies: [
        "ConcordApp", "ConcordJSON", "ConcordLog", "ConcordReplay", "ConcordServer", "ConcordWire", "DaemonDriving",
        "SampleApp", "Workspace", .product(name: "Logging", package: "swift-log"),
      ],
      exclude: ["Fixtures"]
    ),
    // Every command of the real `concord` and `concordd`, as a person or a script runs them.
    .testTarget(
      name: "ConcordCommandLineTests",
      dependencies: [
        "Concord", "ConcordApp", "ConcordClient", "ConcordJSON", "ConcordLog", "ConcordPlatform", "ConcordReplay",
        "ConcordServer", "ConcordWire", "DaemonDriving", "PropertyRandom", "SampleApp", "Workspace", "WorkspaceWindows",
      ]
    ),
    // Windows in a real terminal (tmux): full-screen and line windows, the demo, the starter app.
    .testTarget(
      name: "TerminalWindowEndToEndTests",
      dependencies: ["ConcordJSON", "ConcordLog", "ConcordPlatform", "ConcordWire", "DaemonDriving", "Workspace"],
      // The independent generator of hostile text, run by HostileTextTests.
      exclude: ["hostile_text.py"]
    ),
    // A daemon on another machine: ssh (a real sshd on loopback, network namespaces), the relay
    // and its trunk (with the independent mux peer), `--allow-group`.
    .testTarget(
      name: "RemoteTests",
      dependencies: ["ConcordClient", "ConcordLog", "ConcordPlatform", "ConcordWire", "DaemonDriving", "Workspace"],
      exclude: ["mux_peer.py"]
    ),
    // What an app is, on its own: the words people type into a scope, what a scope's state is.
    .testTarget(name: "ConcordAppTests", dependencies: ["ConcordApp", "PropertyRandom"]),
    .testTarget(name: "ConcordTextTests", dependencies: ["ConcordText", "PropertyRandom"]),
    // The relay's frames and channels, told events alone, and where its sockets live.
    .testTarget(name: "ConcordRelayTests", dependencies: ["ConcordRelay", "ConcordClient", "PropertyRandom"]),
    // The window without a terminal: its model, keys, editor and scrolling, told events alone.
    .testTarget(
      name: "ConcordWindowTests",
      dependencies: [
        "Concord", "ConcordWindow", "ConcordApp", "ConcordClient", "ConcordLog", "ConcordReplay", "ConcordWire", "SampleApp",
        "Workspace", "WorkspaceWindows", "PropertyRandom",
      ]
    ),
    // The client on its own: the outbox, what it witnesses of the daemon's log, its texts.
    .testTarget(
      name: "ConcordClientTests",
      dependencies: ["ConcordPlatform", 
        "Concord", "ConcordClient", "ConcordApp", "ConcordLog", "ConcordWire", "PropertyRandom",
        .product(name: "GRDB", package: "GRDB.swift"),
      ]
    ),
    .testTarget(
      name: "ConcordLogTests",
      dependencies: ["ConcordPlatform", "ConcordLog", "PropertyRandom", .product(name: "GRDB", package: "GRDB.swift")],
      // The independent export verifier the tests run beside AuditExport.verify.
      exclude: ["audit_verify_model.py"]
    ),
    // JSON as the wire and the audit export read it: parsing, writing, text, dates, the memos.
    .testTarget(name: "ConcordJSONTests", dependencies: ["ConcordJSON", "PropertyRandom"]),
    // Homes, accounts and sockets on this machine.
    .testTarget(name: "ConcordPlatformTests", dependencies: ["ConcordPlatform"]),
    .testTarget(
      name: "ConcordWireTests",
      dependencies: ["ConcordWire", "PropertyRandom"]
    ),
    .testTarget(
      name: "WorkspaceTests",
      dependencies: [
        "Workspace", "WorkspaceWindows", "Concord", "ConcordApp", "ConcordTesting", "ConcordClient", "ConcordWire",
        "PropertyRandom",
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
      ]
    ),
    .testTarget(
      name: "ConcordTestingTests",
      dependencies: [
        "Concord",
        "ConcordTesting",
        "CounterApp",
        .product(name: "Clocks", package: "swift-clocks"),
      ]
    ),
  ]
)
