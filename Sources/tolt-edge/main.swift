import EdgeServer
import EdgeStore

#if canImport(Glibc)
    import Glibc
#endif

/// `tolt-edge <command> …`: the entry point dispatches on the first word.
StandardError.openMissingStandardDescriptors()
let arguments = Array(CommandLine.arguments.dropFirst())
let command = arguments.first ?? "--help"
let rest = Array(arguments.dropFirst())
let status: Int32
switch command {
case "serve": status = ServeCommand.run(rest)
case "import": status = ConfigCommands.runImport(rest)
case "export": status = ConfigCommands.runExport(rest)
case "clicks": status = ListCommands.runClicks(rest)
case "customers": status = ListCommands.runCustomers(rest)
case "commissions": status = ListCommands.runCommissions(rest)
case "payouts": status = ListCommands.runPayouts(rest)
case "prune": status = PruneCommand.run(rest)
case "migrate": status = ConfigCommands.runMigrate(rest)
case "ua": status = UserAgentCommand.run(rest)
// Not in the usage text: a generator for bench/dashboard.sh, not something a server's operator runs.
case "bench-fill": status = BenchFillCommand.run(rest)
case "--version", "version":
    Output.out("tolt-edge\n" + StoreVersions.summary + "\n")
    status = 0
case "--help", "-h", "help":
    Output.out(Output.mainUsage)
    status = 0
default:
    Output.err("tolt-edge: unknown command '\(command)'\n\n" + Output.mainUsage)
    status = 2
}
exit(status)
