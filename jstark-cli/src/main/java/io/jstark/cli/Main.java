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

    /** Exit code of a command that ran and failed, or whose proof was rejected. */
    public static final int FAILED = 1;
    /** Exit code of a command line that cannot run as given: a bad option value, a missing file. */
    public static final int USAGE = 2;

    /** Runs the command line and returns the exit code (0 ok, 1 failure or rejection, 2 usage error). */
    public static int run(String... args) {
        CommandLine cli = new CommandLine(new Main());
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println("jstark: " + message(e));
            if (System.getenv("JSTARK_STACKTRACE") != null) {
                e.printStackTrace(commandLine.getErr());
            }
            return isUsageError(e) ? USAGE : FAILED;
        });
        return cli.execute(args);
    }

    /** Errors in what the user asked for (options, environment, files), as opposed to failures while running. */
    static boolean isUsageError(Throwable e) {
        return e instanceof io.jstark.protocol.InvalidOptionsException || e instanceof io.jstark.scheduler.InvalidSchedulerSettingException
                || e instanceof io.jstark.examples.UnknownExampleException || e instanceof UsageException
                || e instanceof java.nio.file.NoSuchFileException || e instanceof java.nio.file.AccessDeniedException;
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
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName() : m;
    }

    /** A command line that cannot run as given; the message names the option or file. */
    static final class UsageException extends IllegalArgumentException {
        UsageException(String message) {
            super(message);
        }
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
