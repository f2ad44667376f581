// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "ShopList",
  platforms: [.macOS(.v15)],
  dependencies: [
    // Concord, by its path: this package sits in Concord's Examples/.
    .package(name: "Concord", path: "../..")
  ],
  targets: [
    .executableTarget(
      name: "shoplist",
      dependencies: [
        .product(name: "Concord", package: "Concord"),
        .product(name: "ConcordApp", package: "Concord"),
        .product(name: "ConcordCommandLine", package: "Concord"),
      ]
    )
  ]
)
