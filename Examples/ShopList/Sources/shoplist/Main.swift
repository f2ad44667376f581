import ConcordCommandLine

/// `shoplist`: the daemon, live windows, actions and the audit of a shared shopping list.
@main
enum Main {
  static func main() {
    ConcordProgram(name: "shoplist", app: ShopList.hosted, windows: ShopList.windows).run()
  }
}
