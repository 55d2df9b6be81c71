package io.jstark.cli;

import static io.jstark.cli.CliTest.cli;
import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.air.trace.TableTrace;
import io.jstark.examples.Examples;
import io.jstark.examples.RangeTable;
import io.jstark.instrument.SpanRecorder;
import io.jstark.instrument.Spans;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jstark verify PROOF --key KEY --expect STATEMENT}: valid proofs of another statement (another
 * public input, fewer tables, another height, options the key does not accept) are rejected; without an
 * expectation the command says that it only describes.
 */
class VerifyExpectTest {
    @TempDir
    static Path dir;

    static Path vm;
    static Path vmKey;
    static Path vmStatement;

    static CliTest.Result ok(String... args) {
        CliTest.Result r = cli(args);
        assertThat(r.code())
                .as("%s%n%s%n%s", String.join(" ", args), r.out(), r.err())
                .isZero();
        return r;
    }

    static void assertRejected(String reason, String... args) {
        CliTest.Result r = cli(args);
        assertThat(r.code())
                .as("%s%n%s%n%s", String.join(" ", args), r.out(), r.err())
                .isEqualTo(Main.REJECTED);
        assertThat(r.out()).contains("REJECTED: ").contains(reason);
    }

    static String[] verify(Path proof, Path key, Path statement) {
        return new String[] {"verify", proof.toString(), "--key", key.toString(), "--expect", statement.toString()};
    }

    /** LDE and Merkle-commit spans recorded on this thread while {@code command} runs: preprocessed commitments computed. */
    static long commitmentsDuring(Runnable command) {
        SpanRecorder recorder = new SpanRecorder();
        Spans.start(recorder);
        try {
            command.run();
        } finally {
            Spans.stop(recorder);
        }
        return recorder.records().stream()
                .filter(r -> r.label().equals("lde") || r.label().equals("merkle"))
                .count();
    }

    @BeforeAll
    static void proveTheVm() {
        vm = dir.resolve("vm.bin");
        vmKey = dir.resolve("vm.key");
        vmStatement = dir.resolve("vm.statement.json");
        ok(
                "prove",
                "--example",
                "vm",
                "--size",
                "2^6",
                "--seed",
                "1",
                "--no-report",
                "-o",
                vm.toString(),
                "--write-key",
                "--write-statement");
    }

    @Test
    void theExpectedStatementIsValid() {
        CliTest.Result r = ok(verify(vm, vmKey, vmStatement));
        assertThat(r.out())
                .contains("VALID: a proof of exactly the expected statement")
                .contains("cpu (vm-cpu, 2^6 rows");
        assertThat(r.err()).doesNotContain("NOTE");
    }

    @Test
    void anotherPublicInputIsRejected() {
        Path seed2 = dir.resolve("seed2.bin");
        ok("prove", "--example", "vm", "--size", "2^6", "--seed", "2", "--no-report", "-o", seed2.toString());
        assertRejected("table 'cpu': public inputs", verify(seed2, vmKey, vmStatement));
    }

    @Test
    void anotherHeightIsRejected() {
        Path taller = dir.resolve("taller.bin");
        ok("prove", "--example", "vm", "--size", "2^7", "--no-report", "-o", taller.toString());
        assertRejected("table 'cpu': height 2^7, the expected statement says 2^6", verify(taller, vmKey, vmStatement));
    }

    @Test
    void aValidProofOfFewerTablesIsRejected() throws Exception {
        // the example: a 'vm' proof holding only its range table (it received nothing, so it balances)
        Path rangeOnly = dir.resolve("range-only.bin");
        try (Matrix zeros = Matrix.allocate(RamAllocator.shared(), "range16", RangeTable.ROWS, 1);
                JstarkProver prover =
                        Jstark.prover(Examples.byName("vm").airs()).build()) {
            Files.write(
                    rangeOnly,
                    prover.prove(List.of(TableTrace.of(RangeTable.AIR, zeros))).bytes());
        }
        CliTest.Result described = ok("verify", rangeOnly.toString(), "--key", vmKey.toString());
        assertThat(described.out())
                .contains("VALID: a proof of some statement")
                .contains("range16 (range16, 2^16 rows");
        assertThat(described.err()).contains("NOTE: nothing was compared with what you expect");
        assertRejected("the proof has 1 tables, the expected statement 3", verify(rangeOnly, vmKey, vmStatement));
    }

    @Test
    void optionsTheKeyDoesNotAcceptAreRejected() {
        Path secureKey = dir.resolve("vm-secure.key");
        ok("keygen", "--example", "vm", "--preset", "secure128", "-o", secureKey.toString());
        assertRejected("options (blowup 8, 28 queries", verify(vm, secureKey, vmStatement));
        Path weaker = dir.resolve("weaker.bin");
        // fewer queries and grinding bits, a lower claimed security: a smaller valid proof the key does not accept
        ok(
                "prove",
                "--example",
                "vm",
                "--size",
                "2^6",
                "--seed",
                "1",
                "--queries",
                "26",
                "--grinding",
                "12",
                "--security",
                "90",
                "--no-report",
                "-o",
                weaker.toString());
        assertRejected("not accepted by the verifying key", verify(weaker, vmKey, vmStatement));
    }

    @Test
    void withoutAnExpectationItSaysItOnlyDescribes() {
        CliTest.Result plain = ok("verify", vm.toString());
        assertThat(plain.out()).contains("VALID: a proof of some statement (shown below) of example 'vm'");
        assertThat(plain.err())
                .contains("NOTE: nothing was compared with what you expect")
                .contains("the table definitions were picked from the names in the proof itself");
    }

    @Test
    void aStatementTheKeyCannotHoldIsAnInputError() {
        // both are the caller's files: they do not fit together, and the proof is not read
        Path fibKey = dir.resolve("fib.key");
        ok("keygen", "--example", "fib", "-o", fibKey.toString());
        CliTest.Result r = cli(verify(vm, fibKey, vmStatement));
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(ExitCode.INPUT.code);
        assertThat(r.err())
                .contains(vmStatement + " does not fit the key " + fibKey)
                .contains(
                        "table 'cpu': the expected statement names table definition 'vm-cpu', which the verifying key does not hold");
    }

    /**
     * Without a key, the proof must not choose what verifying it costs. A proof of
     * preprocessed tables (vm's range16) under options other than a preset's is refused after its header,
     * before any preprocessed commitment is computed; under a preset it verifies and says what it accepted.
     */
    @Test
    void withoutAKeyOnlyAPresetsOptionsGetPreprocessedCommitmentsComputed() {
        Path blowup16 = dir.resolve("vm-blowup16.bin");
        ok("prove", "--example", "vm", "--size", "2^6", "--blowup", "16", "--no-report", "-o", blowup16.toString());
        CliTest.Result[] result = new CliTest.Result[1];
        long commitments = commitmentsDuring(() -> result[0] = cli("verify", blowup16.toString()));
        CliTest.Result r = result[0];
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(Main.REJECTED);
        assertThat(r.out())
                .contains(
                        "REJECTED: without --key, a proof of definitions with preprocessed columns (range16 of example 'vm') "
                                + "is accepted only under a preset's options")
                .contains("this one names blowup 16");
        assertThat(commitments).isZero();
        // the same proof with the caller's key for its options: valid, nothing guessed
        Path key16 = dir.resolve("vm16.key");
        ok("keygen", "--example", "vm", "--blowup", "16", "-o", key16.toString());
        ok("verify", blowup16.toString(), "--key", key16.toString());
        // a preset's options: its commitment is computed (one LDE and one tree for range16) and the line says so
        CliTest.Result[] preset = new CliTest.Result[1];
        assertThat(commitmentsDuring(() -> preset[0] = ok("verify", vm.toString(), "--cache-dir", "none")))
                .isEqualTo(2);
        assertThat(preset[0].out())
                .contains("accepting the preset fast100 only, whose preprocessed commitments were computed here");
        // with a cache of preprocessed commitments: computed and stored once, loaded after
        String cache = dir.resolve("verify-cache").toString();
        assertThat(commitmentsDuring(() -> ok("verify", vm.toString(), "--cache-dir", cache)))
                .isEqualTo(2);
        assertThat(commitmentsDuring(() -> ok("verify", vm.toString(), "--cache-dir", cache)))
                .isZero();
    }
}
