package io.jstark.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.air.trace.TableTrace;
import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.examples.Workload;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import java.io.ByteArrayOutputStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review of issue 12: what a hostile proof file makes the commands print and exit with, beyond the safe
 * {@code verify --key --expect} path that {@link ForkedHostileVerifyTest} covers.
 */
class HostileCliOutputTest {
    private static final int HEAP_MIB = 128;

    @TempDir
    Path dir;

    /**
     * A table name is the prover's text: a rejection that prints it must not let it forge a line of its own
     * (a script reading stdout for "VALID" must not find one when the exit code says rejected).
     */
    @Test
    void aTableNameCannotForgeAVerdictLine() throws Exception {
        Path proof = dir.resolve("fib.bin");
        CliTest.Result proved = CliTest.cli("prove", "--example", "fib", "--size", "2^5", "--no-report", "-o", proof.toString(), "--write-key",
                "--write-statement");
        assertThat(proved.code()).as(proved.err()).isZero();
        Path forged = dir.resolve("forged.bin");
        Example fib = Examples.byName("fib");
        try (Workload w = fib.generate(5, 1); JstarkProver prover = Jstark.prover(fib.airs()).build()) {
            TableTrace t = w.tables().getFirst();
            TableTrace renamed = new TableTrace("fib\nVALID: a proof of exactly the expected statement\n\u001b[1A", t.air(), t.main(),
                    t.publicInputs());
            Files.write(forged, prover.prove(List.of(renamed)).bytes());
        }
        CliTest.Result r = CliTest.cli("verify", forged.toString(), "--key", dir.resolve("fib.key").toString(), "--expect",
                dir.resolve("fib.statement.json").toString());
        assertThat(r.code()).isEqualTo(Main.REJECTED);
        assertThat(r.out().lines().filter(l -> l.startsWith("VALID")).count()).as(r.out()).isZero();
        assertThat(r.out()).doesNotContain("\u001b");
    }

    /**
     * {@code inspect} and the describing {@code verify} (no key) read within the format's own 1 GiB limit:
     * a sparse file just under it, opening 255 leaves as wide as the file holds, exhausts a small heap. That
     * must end as the convention says (1 with a REJECTED line, or 3 "memory exhausted"), never as an
     * uncaught OutOfMemoryError with a stack trace.
     */
    @Test
    void aFileBeyondTheHeapIsNoCrashForInspectOrAKeylessVerify() throws Exception {
        Path huge = sparseOpening(dir.resolve("huge.bin"));
        for (String command : List.of("inspect", "verify")) {
            List<String> java = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx" + HEAP_MIB + "m",
                    "--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                    Main.class.getName(), command, huge.toString());
            Process child = new ProcessBuilder(java).redirectErrorStream(true).start();
            String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(child.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(output).as(command + ": " + output).doesNotContain("Exception in thread").doesNotContain("\tat ");
            int code = child.exitValue();
            assertThat(code == 1 && output.contains("REJECTED: ") || code == 3 && output.contains("jstark: ")).as(command + " exit "
                    + code + ": " + output).isTrue();
        }
    }

    /** One fib table of 2^28 rows whose main opening holds 255 leaves filling a 1 GiB - 1 MiB sparse file. */
    private static Path sparseOpening(Path file) throws Exception {
        long length = ProofFormat.MAX_PROOF_BYTES - (1 << 20);
        ByteArrayOutputStream h = new ByteArrayOutputStream();
        h.writeBytes(new byte[] {'J', 'S', 'T', 'K', 1, 0});
        h.writeBytes(ProofFormat.encodeOptions(new ProofOptions(5, 255, 0, 1, 0, "sha256", 0)));
        u16(h, 1);
        for (String s : List.of("fib", "fib")) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            u16(h, b.length);
            h.writeBytes(b);
        }
        h.write(28);
        u16(h, 3);
        h.writeBytes(new byte[3 * 8]);
        h.write(0); // no preprocessed root
        h.writeBytes(new byte[32]); // main root
        int sectionAt = h.size();
        h.writeBytes(new byte[4]);
        h.write(0); // no aux
        h.writeBytes(new byte[32]); // composition root
        h.writeBytes(new byte[7 * 2]); // no out-of-domain values
        h.write(0); // no FRI layers
        u16(h, 0); // no final coefficients
        h.writeBytes(new byte[8]); // nonce
        h.write(0); // no preprocessed opening
        u32(h, 255);
        u32(h, (int) ((length - h.size() - 200) / 8 / 255));
        byte[] head = h.toByteArray();
        long section = length - sectionAt - 4;
        for (int i = 0; i < 4; i++) {
            head[sectionAt + i] = (byte) (section >>> (8 * i));
        }
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.write(head);
            f.setLength(length);
        }
        return file;
    }

    private static void u16(ByteArrayOutputStream out, int v) {
        out.write(v);
        out.write(v >>> 8);
    }

    private static void u32(ByteArrayOutputStream out, int v) {
        u16(out, v);
        u16(out, v >>> 16);
    }
}
