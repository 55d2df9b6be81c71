package io.jstark.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code jstark} command. */
@Command(
        name = "jstark",
        mixinStandardHelpOptions = true,
        versionProvider = BuildVersion.class,
        description = "Multi-table STARK prover and verifier for the JVM.")
public final class Main implements java.util.concurrent.Callable<Integer> {
    /** The commands, in the order --help lists them. */
    static final java.util.List<String> COMMANDS = java.util.List.of(
            "prove",
            "verify",
            "keygen",
            "inspect",
            "plan",
            "profile",
            "bench",
            "demo",
            "cache",
            "worker",
            AotTrainingCommand.NAME);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /**
     * {@code -Djstark.cli.stderr.terminal=true|false}: whether stderr ends at a terminal. scripts/jstark sets it (stderr
     * reaches the JVM through its filter, a pipe); without it, the JVM's console decides.
     */
    public static final String STDERR_TERMINAL_PROPERTY = "jstark.cli.stderr.terminal";

    /** Exit code of a rejected proof. */
    public static final int REJECTED = ExitCode.REJECTED.code;
    /** Exit code of a command line that cannot run as given: a bad option or value. */
    public static final int USAGE = ExitCode.USAGE.code;

    /** Runs the command line and returns its exit code ({@link ExitCode}, listed by every command's --help). */
    public static int run(String... args) {
        return execute(args);
    }

    /**
     * Runs the command line as if started in {@code workingDirectory} (absolute) with {@code environment}: what the warm daemon
     * does for its client. Relative paths resolve against that directory, the JSTARK_* settings come from that environment,
     * progress is drawn as a bar when {@code stderrTerminal}.
     */
    public static int run(
            java.nio.file.Path workingDirectory,
            java.util.Map<String, String> environment,
            boolean stderrTerminal,
            String... args) {
        return Invocation.within(
                workingDirectory, environment, stderrTerminal, () -> execute(Invocation.argumentFiles(args)));
    }

    private static int execute(String... args) {
        oneLineLogMessages();
        // the command named first alone: picocli loads each registered command's options (their classes and what
        // their fields name), so 'verify' stays clear of the prover's classes; help, or anything else, gets them all
        String named = args.length > 0 && COMMANDS.contains(args[0]) ? args[0] : null;
        CommandLine cli = commandLine(named);
        try {
            return cli.execute(args);
        } catch (OutOfMemoryError e) {
            // picocli hands its handler Exceptions only; an Error unwinds to here, what it allocated garbage by now
            return report(e, cli.getOut(), cli.getErr());
        }
    }

    /**
     * The {@code jstark} command line with the command {@code named} registered, or every command when it is null:
     * the one specification that both runs commands and lists them.
     */
    static CommandLine commandLine(String named) {
        CommandLine cli = new CommandLine(new Main());
        for (String name : COMMANDS) {
            if (named == null || named.equals(name)) {
                cli.addSubcommand(command(name));
            }
        }
        cli.addSubcommand(new CommandLine.HelpCommand());
        // after the commands: picocli gives the converter to the commands registered so far
        cli.registerConverter(java.nio.file.Path.class, Invocation::path);
        listExitCodes(cli);
        cli.setExecutionExceptionHandler(
                (e, commandLine, parseResult) -> report(e, commandLine.getOut(), commandLine.getErr()));
        return cli;
    }

    /** A new instance of the command called {@code name}: each class is loaded only when its name is asked for. */
    private static Object command(String name) {
        return switch (name) {
            case "prove" -> new ProveCommand();
            case "verify" -> new VerifyCommand();
            case "keygen" -> new KeygenCommand();
            case "inspect" -> new InspectCommand();
            case "plan" -> new PlanCommand();
            case "profile" -> new ProfileCommand();
            case "bench" -> new BenchCommand();
            case "demo" -> new DemoCommand();
            case "cache" -> new CacheCommand();
            case "worker" -> new WorkerCommand();
            case AotTrainingCommand.NAME -> new AotTrainingCommand();
            default -> throw new IllegalArgumentException("no command " + name);
        };
    }

    /**
     * Says what went wrong, in one line, and returns its exit code. Every message may carry text from a
     * file (a proof's table names, a statement's fields): it is printed through {@link SafeText}.
     */
    static int report(Throwable e, PrintWriter out, PrintWriter err) {
        ExitCode code = ExitCode.of(e);
        if (code == ExitCode.REJECTED) {
            // a verdict, not an error: on stdout, where VALID goes
            out.println("REJECTED: " + SafeText.of(e.getMessage()));
            out.flush();
        } else if (code == ExitCode.INTERNAL) {
            // a bug: its text is internal, what the user can act on is the hint
            err.println("jstark: internal error (" + e.getClass().getName()
                    + "), a bug in jstark; JSTARK_STACKTRACE=1 prints its stack trace");
        } else {
            err.println("jstark: " + SafeText.of(message(e)));
        }
        if (Invocation.environment().get("JSTARK_STACKTRACE") != null) {
            e.printStackTrace(err);
        }
        err.flush();
        return code.code;
    }

    /**
     * The library's messages go through {@link System.Logger} (java.util.logging by default), whose default
     * format takes two lines with a timestamp; the command prints them as its own, one line each. Set
     * before the first message; a format the user gives ({@code -Djava.util.logging.SimpleFormatter.format}) wins.
     */
    private static void oneLineLogMessages() {
        String property = "java.util.logging.SimpleFormatter.format";
        if (System.getProperty(property) == null) {
            System.setProperty(property, "jstark: %4$s: %5$s%6$s%n");
        }
    }

    /** Every command's --help ends with the exit codes; a command line picocli cannot parse exits with USAGE. */
    private static void listExitCodes(CommandLine command) {
        command.getCommandSpec()
                .usageMessage()
                .exitCodeListHeading("%nExit codes:%n")
                .exitCodeList(ExitCode.helpList());
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
            return "out of memory (" + e.getMessage()
                    + "): give the JVM more heap (-Xmx; for scripts/jstark JSTARK_JAVA_OPTS) or the "
                    + "proof less (--memory-budget, --storage disk)";
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
    public Integer call() {
        return missingSubcommand(spec);
    }

    /**
     * A command that only groups others ({@code jstark}, {@code jstark bench}, {@code jstark profile}) run
     * alone: its usage goes to stderr and the exit code is a usage error, so a script notices.
     */
    static int missingSubcommand(CommandLine.Model.CommandSpec spec) {
        CommandLine cli = spec.commandLine();
        cli.getErr().println("jstark: say which command to run (" + spec.qualifiedName() + " COMMAND)");
        cli.usage(cli.getErr());
        cli.getErr().flush();
        return ExitCode.USAGE.code;
    }
}
