package io.jstark.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code jstark} command. */
@Command(name = "jstark", mixinStandardHelpOptions = true, version = "jstark 0.1.0",
        description = "Multi-table STARK prover and verifier for the JVM.",
        subcommands = {ProveCommand.class, VerifyCommand.class, KeygenCommand.class, InspectCommand.class, PlanCommand.class,
                ProfileCommand.class, BenchCommand.class, DemoCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Exit code of a rejected proof. */
    public static final int REJECTED = ExitCode.REJECTED.code;
    /** Exit code of a command line that cannot run as given: a bad option or value. */
    public static final int USAGE = ExitCode.USAGE.code;
    /** Exit code of a missing or unreadable input, or an unusable environment (disk, spill directory, memory). */
    public static final int INPUT = ExitCode.INPUT.code;

    /** Runs the command line and returns its exit code ({@link ExitCode}, listed by every command's --help). */
    public static int run(String... args) {
        CommandLine cli = new CommandLine(new Main());
        listExitCodes(cli);
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            ExitCode code = ExitCode.of(e);
            if (code == ExitCode.REJECTED) {
                // a verdict, not an error: on stdout, where VALID goes
                commandLine.getOut().println("REJECTED: " + e.getMessage());
                commandLine.getOut().flush();
            } else {
                commandLine.getErr().println("jstark: " + (code == ExitCode.INTERNAL ? "internal error: " + e
                        + " (a bug; JSTARK_STACKTRACE=1 prints its stack trace)" : message(e)));
            }
            if (System.getenv("JSTARK_STACKTRACE") != null) {
                e.printStackTrace(commandLine.getErr());
            }
            return code.code;
        });
        return cli.execute(args);
    }

    /** Every command's --help ends with the exit codes; a command line picocli cannot parse exits with USAGE. */
    private static void listExitCodes(CommandLine command) {
        command.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n").exitCodeList(ExitCode.helpList());
        command.getCommandSpec().exitCodeOnInvalidInput(ExitCode.USAGE.code);
        for (CommandLine sub : command.getSubcommands().values()) {
            listExitCodes(sub);
        }
    }

    private static String message(Throwable e) {
        if (e instanceof java.nio.file.NoSuchFileException f) {
            return "no such file: " + f.getFile();
        }
        if (e instanceof java.nio.file.AccessDeniedException f) {
            return "permission denied: " + f.getFile();
        }
        if (e instanceof java.nio.file.FileSystemException f) {
            return f.getFile() + ": " + (f.getReason() == null ? e.getClass().getSimpleName() : f.getReason());
        }
        if (e instanceof OutOfMemoryError) {
            return "out of memory (" + e.getMessage() + "): give the JVM more (-Xmx) or the proof less (--memory-budget, --storage disk)";
        }
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName() : m;
    }

    /** A command line that cannot run as given; the message names the option. */
    static final class UsageException extends IllegalArgumentException {
        UsageException(String message) {
            super(message);
        }
    }

    /** An input file that is not what it should be (not a regular file, malformed); the message names it. */
    static final class InputException extends RuntimeException {
        InputException(String message) {
            super(message);
        }
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
