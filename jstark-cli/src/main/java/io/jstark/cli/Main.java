package io.jstark.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code jstark} command. */
@Command(name = "jstark", mixinStandardHelpOptions = true, version = "jstark 0.1.0",
        description = "Multi-table STARK prover and verifier for the JVM.",
        subcommands = {ProveCommand.class, VerifyCommand.class, InspectCommand.class, PlanCommand.class, ProfileCommand.class, BenchCommand.class,
                DemoCommand.class,
                CommandLine.HelpCommand.class})
public final class Main implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns the exit code (0 ok, 1 failure or rejection, 2 usage error). */
    public static int run(String... args) {
        CommandLine cli = new CommandLine(new Main());
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println("jstark: " + message(e));
            if (System.getenv("JSTARK_STACKTRACE") != null) {
                e.printStackTrace(commandLine.getErr());
            }
            return 1;
        });
        return cli.execute(args);
    }

    private static String message(Throwable e) {
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName() : m;
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
