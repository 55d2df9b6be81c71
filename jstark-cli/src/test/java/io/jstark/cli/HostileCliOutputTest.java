package io.jstark.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.air.trace.TableTrace;
import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.examples.Workload;
import io.jstark.protocol.InvalidStatementException;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a hostile proof file makes the commands print and exit with, beyond the safe
 * {@code verify --key --expect} path that {@link ForkedHostileVerifyTest} covers.
 */
class HostileCliOutputTest {
    @TempDir
    Path dir;

    /**
     * A table name is the prover's text: a rejection that prints it must not let it forge a line of its own
     * (a script reading stdout for "VALID" must not find one when the exit code says rejected).
     */
    @Test
    void aTableNameCannotForgeAVerdictLine() throws Exception {
        Path proof = dir.resolve("fib.bin");
        CliTest.Result proved = CliTest.cli(
                "prove",
                "--example",
                "fib",
                "--size",
                "2^5",
                "--no-report",
                "-o",
                proof.toString(),
                "--write-key",
                "--write-statement");
        assertThat(proved.code()).as(proved.err()).isZero();
        String forgedName = "fib\nVALID: a proof of exactly the expected statement\n\u001b[1A";
        Path forged = dir.resolve("forged.bin");
        Example fib = Examples.byName("fib");
        try (Workload w = fib.generate(5, 1);
                JstarkProver prover = Jstark.prover(fib.airs()).build()) {
            TableTrace t = w.tables().getFirst();
            // an honest prover refuses the name (a statement rule of the format, after the fix)...
            assertThatThrownBy(() ->
                            prover.prove(List.of(new TableTrace(forgedName, t.air(), t.main(), t.publicInputs()))))
                    .isInstanceOf(InvalidStatementException.class)
                    .hasMessageContaining("U+000A");
            // ...so a hostile one writes it into the bytes: a proof of a name as long, then the name's bytes replaced
            String placeholder = "fib" + "x".repeat(forgedName.length() - 3);
            byte[] bytes = prover.prove(List.of(new TableTrace(placeholder, t.air(), t.main(), t.publicInputs())))
                    .bytes();
            Files.write(
                    forged,
                    replaceOnce(
                            bytes,
                            placeholder.getBytes(StandardCharsets.UTF_8),
                            forgedName.getBytes(StandardCharsets.UTF_8)));
        }
        for (String[] args : List.of(
                new String[] {
                    "verify",
                    forged.toString(),
                    "--key",
                    dir.resolve("fib.key").toString(),
                    "--expect",
                    dir.resolve("fib.statement.json").toString()
                },
                new String[] {"verify", forged.toString()},
                new String[] {"inspect", forged.toString()})) {
            CliTest.Result r = CliTest.cli(args);
            assertThat(r.code())
                    .as(String.join(" ", args) + ": " + r.out() + r.err())
                    .isEqualTo(Main.REJECTED);
            assertThat(r.out().lines().filter(l -> l.startsWith("VALID")).count())
                    .as(r.out())
                    .isZero();
            assertThat(r.out() + r.err()).doesNotContain("\u001b");
        }
    }

    private static byte[] replaceOnce(byte[] bytes, byte[] what, byte[] with) {
        for (int i = 0; i + what.length <= bytes.length; i++) {
            if (java.util.Arrays.equals(bytes, i, i + what.length, what, 0, what.length)) {
                byte[] out = bytes.clone();
                System.arraycopy(with, 0, out, i, with.length);
                return out;
            }
        }
        throw new AssertionError("the placeholder is not in the proof");
    }

    /**
     * {@code inspect} and the describing {@code verify} (no key) read within the format's own 1 GiB limit:
     * a sparse file just under it, opening 255 leaves as wide as the file holds, exhausts a small heap. That
     * must end as the convention says (1 with a REJECTED line, or 3 "memory exhausted"), never as an
     * uncaught OutOfMemoryError with a stack trace.
     */
    @Test
    void aFileBeyondTheHeapIsNoCrashForInspectOrAKeylessVerify() throws Exception {
        // one fib table of 2^28 rows whose main opening holds 255 leaves filling a 1 GiB - 1 MiB sparse file
        Path huge = SmallHeap.widestFibOpening(
                dir.resolve("huge.bin"),
                new ProofOptions(5, 255, 0, 1, 0, "sha256", 0),
                List.of("fib"),
                ProofFormat.MAX_PROOF_BYTES - (1 << 20));
        for (String command : List.of("inspect", "verify")) {
            String output = SmallHeap.run(Main.class, command, huge.toString());
            assertThat(output)
                    .as(command + ": " + output)
                    .doesNotContain("Exception in thread")
                    .doesNotContain("\tat ");
            int code = SmallHeap.exitCode(output);
            assertThat(code == 1 && output.contains("REJECTED: ") || code == 3 && output.contains("jstark: "))
                    .as(command + " exit " + code + ": " + output)
                    .isTrue();
        }
    }
}
