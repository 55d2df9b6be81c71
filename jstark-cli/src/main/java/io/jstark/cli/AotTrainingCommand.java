package io.jstark.cli;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code jstark aot-training DIR} (hidden): the training run scripts/jstark records the JVM's AOT cache
 * from ({@code -XX:AOTCacheOutput}: the classes loaded and linked, the method profiles). It runs the
 * commands users run, in one JVM, on the examples, their files in DIR: what it does not run here a later
 * process loads and profiles from scratch. Their output is dropped; the first failing command is reported.
 */
@Command(name = AotTrainingCommand.NAME, hidden = true, description = "Run the AOT cache's training workload in DIR.")
public final class AotTrainingCommand implements Callable<Integer> {
    static final String NAME = "aot-training";

    @Parameters(
            index = "0",
            paramLabel = "DIR",
            description = "Directory for the training run's files (created; left behind).")
    Path directory;

    /** The training commands, files in {@code dir}: each user-facing command at least once, each example's prover. */
    static List<String[]> commands(Path dir) {
        String d = dir.toString() + "/";
        String cache = d + "cache";
        List<String[]> out = new ArrayList<>();
        // fib at its default size: above the lane warm-up's threshold, so the vector kernels run and are profiled
        out.add(new String[] {
            "prove",
            "--example",
            "fib",
            "-o",
            d + "fib.bin",
            "--write-key",
            d + "fib.key",
            "--write-statement",
            d + "fib.json",
            "--cache-dir",
            cache
        });
        out.add(new String[] {"verify", d + "fib.bin", "--key", d + "fib.key", "--expect", d + "fib.json"});
        out.add(new String[] {"verify", d + "fib.bin", "--cache-dir", cache});
        out.add(new String[] {"inspect", d + "fib.bin"});
        // the mix twice: its preprocessed commitments computed and stored, then loaded
        for (int i = 0; i < 2; i++) {
            out.add(new String[] {
                "prove",
                "--example",
                "mix",
                "--size",
                "2^10",
                "-o",
                d + "mix.bin",
                "--write-key",
                d + "mix.key",
                "--write-statement",
                d + "mix.json",
                "--cache-dir",
                cache
            });
        }
        out.add(new String[] {"verify", d + "mix.bin", "--key", d + "mix.key", "--expect", d + "mix.json"});
        out.add(new String[] {"verify", d + "mix.bin", "--key", d + "mix.key"});
        out.add(new String[] {"keygen", "--example", "mix", "-o", d + "keygen.key", "--force", "--cache-dir", cache});
        out.add(new String[] {
            "prove",
            "--example",
            "vm",
            "-o",
            d + "vm.bin",
            "--write-key",
            d + "vm.key",
            "--write-statement",
            d + "vm.json",
            "--cache-dir",
            cache
        });
        out.add(new String[] {"verify", d + "vm.bin", "--key", d + "vm.key", "--expect", d + "vm.json"});
        out.add(new String[] {"plan", "--example", "fib", "--rows", "2^20"});
        return out;
    }

    @Override
    public Integer call() throws Exception {
        Files.createDirectories(directory);
        PrintStream out = System.out;
        PrintStream err = System.err;
        PrintStream dropped = new PrintStream(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8);
        try {
            for (String[] command : commands(directory)) {
                System.setOut(dropped);
                System.setErr(dropped);
                int code = Main.run(command);
                System.setOut(out);
                System.setErr(err);
                if (code != 0) {
                    err.println("jstark: AOT training command 'jstark " + String.join(" ", command) + "' exited with "
                            + code);
                    return code;
                }
            }
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        return 0;
    }
}
