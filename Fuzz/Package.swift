// swift-tools-version:5.4
//
// Coverage-guided fuzzers (libFuzzer) for the parts of Concord that read what other processes
// or people send: the wire decoder, the diff applier and the window command parsers.
// Built and run by scripts/fuzz.sh; see Fuzz/README.md.
//
// Each target defines `LLVMFuzzerTestOneInput` and no `main` (libFuzzer's own main drives it):
// `-parse-as-library` keeps the file from being a script, and `-sanitize=fuzzer` links libFuzzer.
// The tools version stays at 5.4 on purpose: from 5.5 on SwiftPM renames an executable's entry
// point to `<module>_main` and links it with `--defsym main=<module>_main`, which fails for a
// target that has no main of its own (`undefined symbol 'fuzz_diff_main'`).
//
// scripts/fuzz.sh builds every module, the code under test included, with AddressSanitizer and
// libFuzzer's coverage instrumentation (`--sanitize=address -Xswiftc -sanitize-coverage=...`).
// `-Xswiftc -sanitize=fuzzer` for every module would be simpler, but it also reaches the macro
// plugins the root package builds for the host (CasePathsMacros), and linking them with libFuzzer
// fails. Only these targets link libFuzzer; the macros link the ASan runtime alone, whose weak
// coverage callbacks keep them working.
import PackageDescription

let fuzzerSettings: [SwiftSetting] = [.unsafeFlags(["-sanitize=fuzzer", "-parse-as-library"])]
let fuzzerLinking: [LinkerSetting] = [.unsafeFlags(["-sanitize=fuzzer"])]

let package = Package(
  name: "ConcordFuzz",
  dependencies: [
    .package(name: "Concord", path: ".."),
  ],
  targets: [
    .executableTarget(
      name: "fuzz-wire",
      dependencies: [.product(name: "ConcordWire", package: "Concord")],
      swiftSettings: fuzzerSettings, linkerSettings: fuzzerLinking),
    .executableTarget(
      name: "fuzz-diff",
      dependencies: [.product(name: "ConcordWire", package: "Concord")],
      swiftSettings: fuzzerSettings, linkerSettings: fuzzerLinking),
    .executableTarget(
      name: "fuzz-words",
      dependencies: [
        .product(name: "ConcordWire", package: "Concord"),
        .product(name: "ConcordApp", package: "Concord"),
        .product(name: "Workspace", package: "Concord"),
      ],
      swiftSettings: fuzzerSettings, linkerSettings: fuzzerLinking),
  ]
)
