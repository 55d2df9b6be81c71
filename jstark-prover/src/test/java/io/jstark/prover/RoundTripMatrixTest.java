package io.jstark.prover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.air.trace.TableTrace;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.Statement;
import io.jstark.protocol.VerifyingKey;
import io.jstark.prover.exec.TableProvingException;
import io.jstark.verifier.StarkVerifier;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Prove-then-verify over sizes, hashes, folding factors and blowups; determinism; soundness of the prover's refusal. */
class RoundTripMatrixTest {
    static byte[] prove(ProofOptions options, TableTrace trace, WorkerPool pool) {
        try (ProvingKey key = ProvingKey.of(List.of(trace.air()))) {
            Proof proof =
                    new StarkProver(key, options, ProverSettings.defaults().withPool(pool)).prove(List.of(trace));
            return ProofFormat.write(proof);
        }
    }

    static void verify(TableTrace trace, byte[] bytes) throws ProofRejectedException {
        StarkVerifier.verify(
                VerifyingKey.of(List.of(trace.air())).withMinimumSecurityBits(0),
                Statement.ofTraces(List.of(trace)),
                bytes);
    }

    @ParameterizedTest(name = "fib 2^{0}")
    @ValueSource(ints = {3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
    void everySize(int logRows) throws Exception {
        TableTrace trace = TestAirs.fibTrace(logRows, logRows);
        try {
            ProofOptions options = new ProofOptions(1, 6, 2, 1, 2, "sha256", 0);
            verify(trace, prove(options, trace, WorkerPool.common()));
        } finally {
            trace.main().close();
        }
    }

    @ParameterizedTest(name = "{0}, folding {1}, blowup {2}")
    @CsvSource({
        "sha256,2,2",
        "sha256,4,4",
        "sha256,8,8",
        "keccak256,2,16",
        "keccak256,4,2",
        "keccak256,8,4",
        "blake3,2,8",
        "blake3,4,16",
        "blake3,8,2",
        "sha256,8,16"
    })
    void everyHashFoldingAndBlowup(String hash, int folding, int blowup) throws Exception {
        TableTrace fib = TestAirs.fibTrace(7, 1);
        TableTrace cube = TestAirs.cubeTrace(6, 4);
        try {
            ProofOptions options = new ProofOptions(1, 5, 3, 1, 0, hash, 0)
                    .withFoldingFactor(folding)
                    .withBlowup(blowup);
            verify(fib, prove(options, fib, WorkerPool.common()));
            verify(cube, prove(options, cube, WorkerPool.common()));
        } finally {
            fib.main().close();
            cube.main().close();
        }
    }

    @Test
    void proofBytesAreIdenticalAcrossRunsAndThreadCounts() {
        TableTrace trace = TestAirs.cubeTrace(9, 77);
        ProofOptions options = new ProofOptions(2, 12, 8, 2, 1, "sha256", 0);
        try (WorkerPool one = WorkerPool.ofThreads(1);
                WorkerPool two = WorkerPool.ofThreads(2);
                WorkerPool three = WorkerPool.ofThreads(3)) {
            byte[] a = prove(options, trace, one);
            byte[] b = prove(options, trace, two);
            byte[] c = prove(options, trace, three);
            byte[] d = prove(options, trace, two);
            assertThat(b).isEqualTo(a);
            assertThat(c).isEqualTo(a);
            assertThat(d).isEqualTo(a);
        } finally {
            trace.main().close();
        }
    }

    /**
     * A trace that breaks one constraint at one row gives no proof at all, but the typed error naming the first
     * failing row, found by the prover's out-of-domain check: with a blowup above the composition's parts (blowup 4,
     * degree 2) and with one equal to them (blowup 2 = the composition parts of a degree-3 constraint).
     */
    @Test
    void aTraceBreakingOneConstraintAtOneRowIsRefusedNamingTheRowAtEveryBlowup() {
        record Case(TableTrace trace, int column, ProofOptions options) {}
        for (int row : new int[] {0, 5, 31, 62}) {
            for (Case c : List.of(
                    new Case(TestAirs.fibTrace(6, 2), 1, new ProofOptions(2, 8, 2, 1, 1, "sha256", 0)),
                    new Case(TestAirs.cubeTrace(6, 3), 0, new ProofOptions(1, 40, 0, 1, 1, "sha256", 0)))) {
                TableTrace trace = c.trace();
                try {
                    assertThat(trace.air().compositionParts(6)
                                    == 1 << c.options().logBlowup())
                            .isEqualTo(trace.air() == TestAirs.CUBE);
                    trace.main().set(row, c.column(), trace.main().get(row, c.column()) + 1);
                    assertThatThrownBy(() -> prove(c.options(), trace, WorkerPool.common()))
                            .isInstanceOf(TableProvingException.class)
                            .cause()
                            .isInstanceOfSatisfying(io.jstark.air.debug.ConstraintViolationException.class, v -> {
                                assertThat(v.table()).isEqualTo(trace.name());
                                assertThat(v.constraint()).isNotNull();
                                assertThat(v.row()).isBetween(Math.max(0, row - 1), row);
                            });
                } finally {
                    trace.main().close();
                }
            }
        }
    }

    @Test
    void aNonCanonicalCellIsRefusedNamingTheTableRowAndColumn() {
        TableTrace trace = TestAirs.fibTrace(4, 2);
        try {
            trace.main().set(5, 1, -1L); // 2^64 - 1, above p
            assertThatThrownBy(() -> prove(new ProofOptions(2, 8, 2, 1, 1, "sha256", 0), trace, WorkerPool.common()))
                    .hasMessageContaining("table 'fib'")
                    .hasMessageContaining("row 5")
                    .hasMessageContaining("column 'b'")
                    .hasMessageContaining("not a field element");
        } finally {
            trace.main().close();
        }
    }

    /** Several non-canonical cells: the prover's error names the first column's first such row. */
    @Test
    void nonCanonicalCellsInSeveralColumnsNameTheFirstColumnsFirstRow() {
        TableTrace trace = TestAirs.fibTrace(4, 2);
        try (WorkerPool two = WorkerPool.ofThreads(2)) {
            trace.main().set(3, 1, -1L);
            trace.main().set(11, 0, Goldilocks.P);
            trace.main().set(9, 0, Goldilocks.P + 7);
            assertThatThrownBy(() -> prove(new ProofOptions(2, 8, 2, 1, 1, "sha256", 0), trace, two))
                    .hasMessageContaining("row 9, column 'a'");
        } finally {
            trace.main().close();
        }
    }

    @Test
    void wrongPublicInputIsRejected() throws Exception {
        TableTrace trace = TestAirs.fibTrace(5, 2);
        try {
            ProofOptions options = new ProofOptions(2, 8, 2, 1, 1, "sha256", 0);
            Proof proof;
            try (ProvingKey key = ProvingKey.of(List.of(TestAirs.FIB))) {
                proof = new StarkProver(key, options, ProverSettings.defaults()).prove(List.of(trace));
            }
            Proof.TableHeader h = proof.tables().get(0);
            long[] inputs = h.publicInputs();
            inputs[1] = inputs[1] + 1; // claim another result
            Proof forged = proof.withTables(
                    List.of(new Proof.TableHeader(h.name(), h.airName(), h.logHeight(), inputs, h.preprocessedRoot())));
            VerifyingKey key = VerifyingKey.of(List.of(TestAirs.FIB)).withMinimumSecurityBits(0);
            byte[] forgedBytes = ProofFormat.write(forged);
            // the caller who states the result it expects rejects the claim outright...
            assertThatThrownBy(() -> StarkVerifier.verify(key, Statement.ofTraces(List.of(trace)), forgedBytes))
                    .isInstanceOf(ProofRejectedException.class)
                    .hasFieldOrPropertyWithValue("reason", ProofRejectedException.Reason.STATEMENT);
            // ...and the proof does not prove the claimed result either
            assertThatThrownBy(() -> StarkVerifier.verify(key, Statement.of(forged), forgedBytes))
                    .isInstanceOf(ProofRejectedException.class)
                    .extracting("reason")
                    .isNotEqualTo(ProofRejectedException.Reason.STATEMENT);
        } finally {
            trace.main().close();
        }
    }

    @Test
    void truncatedAndPaddedFilesAreRejectedClearly() {
        TableTrace trace = TestAirs.fibTrace(4, 2);
        try {
            byte[] bytes = prove(new ProofOptions(2, 8, 2, 1, 1, "sha256", 0), trace, WorkerPool.common());
            VerifyingKey key = VerifyingKey.of(List.of(TestAirs.FIB)).withMinimumSecurityBits(0);
            Statement expected = Statement.ofTraces(List.of(trace));
            for (int cut : new int[] {0, 3, 10, 100, bytes.length / 2, bytes.length - 1}) {
                assertThatThrownBy(() -> StarkVerifier.verify(key, expected, Arrays.copyOf(bytes, cut)))
                        .isInstanceOf(ProofRejectedException.class)
                        .hasMessageMatching("(?s).*(truncated|not a jstark proof).*");
            }
            assertThatThrownBy(() -> StarkVerifier.verifyAndDescribe(key, Arrays.copyOf(bytes, bytes.length + 7)))
                    .isInstanceOf(ProofRejectedException.class)
                    .hasMessageContaining("unexpected bytes");
            // against the expected statement the padded file is longer than any proof of it: refused unread
            assertThatThrownBy(() -> StarkVerifier.verify(
                            key, expected, Arrays.copyOf(bytes, (int) StarkVerifier.maxProofBytes(key, expected) + 1)))
                    .isInstanceOf(ProofRejectedException.class)
                    .hasFieldOrPropertyWithValue("reason", ProofRejectedException.Reason.TOO_LARGE);
        } finally {
            trace.main().close();
        }
    }

    @Test
    void optionsBelowTheRequiredSecurityAreRefusedWithAdvice() {
        TableTrace trace = TestAirs.fibTrace(4, 2);
        try {
            ProofOptions weak = ProofOptions.fast100().withQueries(10);
            assertThatThrownBy(() -> prove(weak, trace, WorkerPool.common()))
                    .hasMessageContaining("raise --queries to 28");
        } finally {
            trace.main().close();
        }
    }
}
