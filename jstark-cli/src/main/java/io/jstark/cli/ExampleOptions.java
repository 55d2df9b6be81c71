package io.jstark.cli;

import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.examples.PermutationExample;
import io.jstark.examples.Poseidon2Example;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** Which example workload to prove, and how big. */
public final class ExampleOptions {
    /** The example a command line without {@code --example} runs; it says so ({@link #resolve(PrintStream)}). */
    static final String DEFAULT_EXAMPLE = "vm";

    @Option(
            names = {"-e", "--example"},
            description = "Example workload: ${COMPLETION-CANDIDATES} (default: " + DEFAULT_EXAMPLE
                    + ", and the output says so).",
            completionCandidates = ExampleNames.class)
    String example;

    @Option(
            names = {"--size", "--rows"},
            description =
                    "Size as 2^k or a power of two: trace rows for fib/periodic, CPU steps "
                            + "for vm, rows of the tallest table for mix, trace rows for keccak and poseidon2 (default: the example's).")
    String size;

    @Option(
            names = "--hashes",
            description = "Permutations to prove, for the hash examples (keccak, poseidon2): the trace is the "
                    + "fewest rows that hold them; instead of --size.")
    Integer hashes;

    @Option(names = "--width", description = "State width of poseidon2: 8 (default) or 12.")
    Integer width;

    @Option(
            names = "--seed",
            description = "Seed of the generated traces (default: ${DEFAULT-VALUE}).",
            defaultValue = "1")
    long seed;

    /**
     * The example asked for, sized by {@code --hashes} when given; without {@code --example}, the default, and a line on
     * {@code out} saying which it is.
     */
    Example resolve(PrintStream out) {
        Example named;
        if (example == null) {
            out.println("note: no --example given, so the default '" + DEFAULT_EXAMPLE + "' (others: "
                    + String.join(", ", Examples.names()) + ")");
            named = Examples.byName(DEFAULT_EXAMPLE);
        } else {
            named = Examples.byName(example);
        }
        if (width != null) {
            if (!(named instanceof Poseidon2Example poseidon2)) {
                throw new Main.UsageException("--width: only example '" + Poseidon2Example.NAME
                        + "' has a state width to choose, not '" + named.name() + "'");
            }
            try {
                named = poseidon2.withWidth(width);
            } catch (IllegalArgumentException e) {
                throw new Main.UsageException("--width " + width + ": " + e.getMessage());
            }
        }
        if (hashes == null) {
            return named;
        }
        if (!(named instanceof PermutationExample hashExample)) {
            throw new Main.UsageException(
                    "--hashes: example '" + named.name() + "' proves no hash permutations (those that do: "
                            + String.join(", ", permutationExamples()) + ")");
        }
        if (size != null) {
            throw new Main.UsageException("--hashes and --size both size the trace: give one");
        }
        try {
            return hashExample.forPermutations(hashes);
        } catch (IllegalArgumentException e) {
            throw new Main.UsageException("--hashes " + hashes + ": " + e.getMessage());
        }
    }

    private static List<String> permutationExamples() {
        List<String> names = new ArrayList<>();
        for (Example e : Examples.all()) {
            if (e instanceof PermutationExample) {
                names.add(e.name());
            }
        }
        return names;
    }

    int logSize(Example e) {
        if (size == null) {
            return e.defaultLogSize();
        }
        return parseSize(e, size, "--size");
    }

    /** log2 of {@code text} (2^k or a power of two) as a size of example {@code e}, refused naming {@code option}. */
    static int parseSize(Example e, String text, String option) {
        int log = Sizes.parseLog(text, option);
        if (log < e.minLogSize() || log > e.maxLogSize()) {
            throw new Main.UsageException(option + " " + text + ": example '" + e.name() + "' takes 2^" + e.minLogSize()
                    + "..2^" + e.maxLogSize() + " (" + e.sizeParameter() + ")");
        }
        return log;
    }

    /** Names for picocli's completion and help. */
    static final class ExampleNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return Examples.names().iterator();
        }
    }
}
