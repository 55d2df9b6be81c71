package io.jstark.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.cli.daemon.DaemonControl;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Every {@code jstark} command the README and docs/ show is one the command line takes: a line of a shell block parses
 * as it stands (command, options, values), and a command in inline code names commands and options that exist.
 */
class DocumentationCommandsTest {
    private static final Set<String> SHELL_BLOCKS = Set.of("", "bash", "sh", "shell", "console");
    private static final Pattern ENVIRONMENT_ASSIGNMENT = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*=.*");
    private static final Pattern REDIRECTION = Pattern.compile("[0-9]*[<>].*");
    private static final Pattern PLACEHOLDER = Pattern.compile("[A-Z][A-Z0-9_.]*|\\.\\.\\.");

    @TempDir
    Path daemonDirectory;

    /** A command shown in the docs: where, and its arguments after {@code jstark}. */
    record Shown(MarkdownPages.Line line, List<String> args) {}

    @Test
    void everyCommandOfTheShellBlocksParses() {
        List<Shown> shown = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (Path page : MarkdownPages.pages(MarkdownPages.root())) {
            for (MarkdownPages.CodeLine code : MarkdownPages.codeLines(page, MarkdownPages.read(page))) {
                if (SHELL_BLOCKS.contains(code.language())) {
                    for (List<String> args : commands(code.line().text())) {
                        shown.add(new Shown(code.line(), args));
                        String problem = parseProblem(args);
                        if (problem != null) {
                            problems.add(code.line() + " -> " + problem);
                        }
                    }
                }
            }
        }
        assertThat(shown).as("commands found").hasSizeGreaterThan(30);
        assertThat(shown)
                .as("commands found in the README")
                .anyMatch(s -> s.line().page().endsWith("README.md"));
        assertThat(problems).isEmpty();
    }

    @Test
    void everyCommandInInlineCodeNamesCommandsAndOptionsThatExist() {
        int checked = 0;
        List<String> problems = new ArrayList<>();
        for (Path page : MarkdownPages.pages(MarkdownPages.root())) {
            for (MarkdownPages.Line line : MarkdownPages.proseLines(page, MarkdownPages.read(page))) {
                for (String span : MarkdownPages.inlineCode(line.text())) {
                    for (List<String> args : commands(span)) {
                        checked++;
                        String problem = namesProblem(args);
                        if (problem != null) {
                            problems.add(line + " -> `" + span + "`: " + problem);
                        }
                    }
                }
            }
        }
        assertThat(checked).as("inline commands found").isGreaterThan(10);
        assertThat(problems).isEmpty();
    }

    @Test
    void aCommandThatDoesNotExistIsFound() {
        assertThat(commands("JSTARK_DAEMON=off scripts/jstark prove --example fib   # a comment --no-such-option"))
                .containsExactly(List.of("prove", "--example", "fib"));
        assertThat(commands("for i in 1 2; do scripts/jstark verify \"a b.bin\" > out.txt; done && jstark cache clear"))
                .containsExactly(List.of("verify", "a b.bin"), List.of("cache", "clear"));
        assertThat(commands("./scripts/demo.sh   # prove the 'vm' example")).isEmpty();
        assertThat(parseProblem(List.of("prove", "--example", "fib"))).isNull();
        assertThat(parseProblem(List.of("prove", "--no-such-option"))).contains("--no-such-option");
        assertThat(parseProblem(List.of("bench", "scaling", "--runs", "many"))).contains("many");
        assertThat(parseProblem(List.of("provee"))).isNotNull();
        assertThat(parseProblem(List.of("daemon", "status"))).isNull();
        assertThat(parseProblem(List.of("daemon", "restart"))).isNotNull();
        assertThat(namesProblem(List.of("bench", "scaling", "--runs", "N"))).isNull();
        assertThat(namesProblem(List.of("verify", "PROOF", "--key", "KEY"))).isNull();
        assertThat(namesProblem(List.of("COMMAND", "--help"))).isNull();
        assertThat(namesProblem(List.of("bench", "nonsense"))).contains("nonsense");
        assertThat(namesProblem(List.of("inspect", "--keyy"))).contains("--keyy");
    }

    /**
     * The {@code jstark} commands of a shell line, each as its arguments: the line is cut at comments and at {@code ;},
     * {@code &&}, {@code ||} and {@code |}; a piece names jstark when, after variable assignments and {@code do}/{@code
     * then}/{@code time}, it starts with {@code jstark} or a path ending in {@code scripts/jstark}. Redirections are left out.
     */
    static List<List<String>> commands(String line) {
        List<List<String>> commands = new ArrayList<>();
        for (List<String> piece : pieces(line)) {
            int start = 0;
            while (start < piece.size()
                    && (ENVIRONMENT_ASSIGNMENT.matcher(piece.get(start)).matches()
                            || Set.of("$", "do", "then", "time", "exec").contains(piece.get(start)))) {
                start++;
            }
            if (start < piece.size()
                    && (piece.get(start).equals("jstark") || piece.get(start).endsWith("scripts/jstark"))
                    && start + 1 < piece.size()) {
                List<String> args = new ArrayList<>();
                for (int i = start + 1; i < piece.size(); i++) {
                    String token = piece.get(i);
                    if (REDIRECTION.matcher(token).matches()) {
                        if (token.matches("[0-9]*[<>]+&?")) {
                            i++; // the target follows as a word of its own
                        }
                    } else {
                        args.add(token);
                    }
                }
                commands.add(args);
            }
        }
        return commands;
    }

    /** The line's words, quotes taken off, in pieces cut at ; && || | and ending at an unquoted # that starts a word. */
    private static List<List<String>> pieces(String line) {
        List<List<String>> pieces = new ArrayList<>();
        List<String> words = new ArrayList<>();
        StringBuilder word = null;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
                word = word == null ? new StringBuilder() : word;
            } else if (Character.isWhitespace(c)) {
                word = endWord(words, word);
            } else if (c == '#' && word == null) {
                break;
            } else if (c == ';' || c == '|' || (c == '&' && i + 1 < line.length() && line.charAt(i + 1) == '&')) {
                word = endWord(words, word);
                pieces.add(words);
                words = new ArrayList<>();
                if (i + 1 < line.length() && line.charAt(i + 1) == c) {
                    i++;
                }
            } else {
                word = word == null ? new StringBuilder() : word;
                word.append(c);
            }
        }
        endWord(words, word);
        pieces.add(words);
        return pieces;
    }

    private static StringBuilder endWord(List<String> words, StringBuilder word) {
        if (word != null) {
            words.add(word.toString());
        }
        return null;
    }

    /** Why the command line would not take {@code args}; null when it parses. */
    String parseProblem(List<String> args) {
        if (!args.isEmpty() && args.getFirst().equals("daemon")) {
            return daemonProblem(args);
        }
        try {
            Main.commandLine(null).parseArgs(args.toArray(String[]::new));
            return null;
        } catch (CommandLine.ParameterException e) {
            return e.getMessage();
        }
    }

    /**
     * Why {@code args} name a command or an option that does not exist; null when they do not. Placeholders (upper-case words
     * such as PROOF, or ...) stand for values; one where a command's name belongs ends the check.
     */
    String namesProblem(List<String> args) {
        if (!args.isEmpty() && args.getFirst().equals("daemon")) {
            return daemonProblem(args);
        }
        CommandSpec command = Main.commandLine(null).getCommandSpec();
        boolean optionSeen = false;
        for (String arg : args) {
            boolean placeholder = PLACEHOLDER.matcher(arg).matches();
            if (arg.startsWith("-") && arg.length() > 1) {
                optionSeen = true;
                String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
                if (command.findOption(name) == null) {
                    return "no option " + name + " for " + command.qualifiedName();
                }
            } else if (!optionSeen && !command.subcommands().isEmpty()) {
                if (placeholder) {
                    return null;
                }
                CommandLine sub = command.subcommands().get(arg);
                if (sub == null) {
                    return "no command " + arg + " in " + command.qualifiedName();
                }
                command = sub.getCommandSpec();
            }
        }
        return null;
    }

    /** {@code jstark daemon ...} is the client's, not the command line's: the client says whether it knows it. */
    private String daemonProblem(List<String> args) {
        int code = DaemonControl.exitCode(daemonDirectory, args.subList(1, args.size()));
        return code == ExitCode.USAGE.code ? "the daemon's client does not take " + String.join(" ", args) : null;
    }
}
