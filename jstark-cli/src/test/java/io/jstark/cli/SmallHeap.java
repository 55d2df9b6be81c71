package io.jstark.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.protocol.ProofOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** What the forked small-heap tests share: the child JVM, and hostile files far larger than its heap that cost no disk. */
final class SmallHeap {
    /** The heap of every child: far below what a file within the format's limits can hold. */
    static final int HEAP_MIB = 128;

    private SmallHeap() {}

    /** Runs {@code main} with {@code args} in a JVM of {@link #HEAP_MIB} MiB of heap; its stdout and stderr together. */
    static String run(Class<?> main, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + HEAP_MIB + "m",
                "--add-modules",
                "jdk.incubator.vector",
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                main.getName()));
        command.addAll(List.of(args));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return output + "\nEXIT " + child.exitValue();
    }

    /** The exit code {@link #run} appended. */
    static int exitCode(String output) {
        return Integer.parseInt(
                output.substring(output.lastIndexOf("\nEXIT ") + 6).strip());
    }

    /** {@code head} at the start of a sparse file of {@code length} bytes (zeros, no disk space). */
    static Path sparse(Path file, byte[] head, long length) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.write(head);
            f.setLength(length);
        }
        return file;
    }

    /**
     * A sparse file of {@code length} bytes stating fib tables of 2^28 rows with these names under
     * {@code options} (255 queries, for 255 blocks), whose main phase opens 255 blocks of the first table of
     * as many elements as the file holds: parsing it allocates about the whole file.
     */
    static Path widestFibOpening(Path file, ProofOptions options, List<String> names, long length) throws IOException {
        ByteArrayOutputStream h = new ByteArrayOutputStream();
        h.writeBytes(new byte[] {'J', 'S', 'T', 'K', (byte) io.jstark.protocol.ProofFormat.VERSION, 0});
        h.writeBytes(io.jstark.protocol.ProofFormat.encodeOptions(options));
        u16(h, names.size());
        for (String name : names) {
            str(h, name);
            str(h, "fib");
            h.write(28);
            u16(h, 3);
            h.writeBytes(new byte[3 * 8]);
            h.write(0); // no preprocessed root
        }
        h.writeBytes(new byte[32]); // main root
        h.write(0); // no aux
        h.writeBytes(new byte[names.size()]); // no bus sums
        h.writeBytes(new byte[32]); // composition root
        h.writeBytes(new byte[7 * 2 * names.size()]); // no out-of-domain values
        h.write(0); // no FRI layers
        u16(h, 0); // no final coefficients
        h.writeBytes(new byte[8]); // nonce
        h.writeBytes(new byte[names.size()]); // no preprocessed openings
        u16(h, 1); // the main phase opens one table
        u32(h, 255);
        u32(h, (int) ((length - h.size() - 200) / 8 / 255));
        return sparse(file, h.toByteArray(), length);
    }

    private static void u16(ByteArrayOutputStream out, int v) {
        out.write(v);
        out.write(v >>> 8);
    }

    private static void u32(ByteArrayOutputStream out, int v) {
        u16(out, v);
        u16(out, v >>> 16);
    }

    private static void str(ByteArrayOutputStream out, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        u16(out, b.length);
        out.writeBytes(b);
    }
}
