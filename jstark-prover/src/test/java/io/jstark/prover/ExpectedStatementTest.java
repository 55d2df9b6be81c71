package io.jstark.prover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.air.trace.InvalidTraceException;
import io.jstark.air.trace.TableTrace;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.InvalidStatementException;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.ProofRejectedException.Reason;
import io.jstark.protocol.Statement;
import io.jstark.protocol.VerifyingKey;
import io.jstark.verifier.StarkVerifier;
import io.jstark.verifier.VerifiedStatement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The caller states what it expects: valid proofs of any other statement (another public input, fewer
 * tables, another height or order, weaker options) are rejected by {@code verify(key, expected, proof)},
 * each with a typed reason, while {@code verifyAndDescribe} accepts them and says what they prove.
 */
class ExpectedStatementTest {
    static final ProofOptions OPTIONS = new ProofOptions(2, 8, 4, 1, 1, "sha256", 0);
    static ProvingKey provingKey;
    static VerifyingKey key;
    static TableTrace sender;
    static TableTrace receiver;
    static Statement expected;
    static byte[] valid;

    @BeforeAll
    static void prove() {
        provingKey = ProvingKey.of(List.of(TestAirs.SENDER, TestAirs.BYTES, TestAirs.FIB));
        key = provingKey.verifyingKey(OPTIONS, WorkerPool.common());
        sender = TestAirs.senderTrace("sender", 5, 1);
        receiver = TestAirs.bytesTrace(sender);
        expected = Statement.ofTraces(List.of(sender, receiver));
        valid = prove(OPTIONS, List.of(sender, receiver));
    }

    @AfterAll
    static void release() {
        TestAirs.close(List.of(sender, receiver));
        provingKey.close();
    }

    static byte[] prove(ProofOptions options, List<TableTrace> traces) {
        return ProofFormat.write(new StarkProver(provingKey, options, ProverSettings.defaults()).prove(traces));
    }

    static void assertRejected(Statement statement, byte[] proof, Reason reason, String message) {
        assertThatThrownBy(() -> StarkVerifier.verify(key, statement, proof))
                .isInstanceOf(ProofRejectedException.class)
                .hasFieldOrPropertyWithValue("reason", reason)
                .hasMessageContaining(message)
                .hasNoCause();
    }

    @Test
    void theExpectedStatementVerifies() throws Exception {
        VerifiedStatement statement = StarkVerifier.verify(key, expected, valid);
        assertThat(statement.tables()).extracting(VerifiedStatement.Table::name).containsExactly("sender", "bytes");
        assertThat(statement.table("sender").logHeight()).isEqualTo(5);
        // the object says which form returned it
        assertThat(statement.form()).isEqualTo(VerifiedStatement.Form.EXPECTED);
        assertThat(StarkVerifier.verifyAndDescribe(key, valid).form()).isEqualTo(VerifiedStatement.Form.DESCRIBED);
    }

    @Test
    void aValidProofWithFewerTablesIsRejected() throws Exception {
        // a receiver that received nothing balances on its own: a valid proof of a statement nobody expects
        try (Matrix zeros = Matrix.allocate(RamAllocator.shared(), "bytes", 256, 1)) {
            TableTrace alone = TableTrace.of(TestAirs.BYTES, zeros);
            byte[] proof = prove(OPTIONS, List.of(alone));
            assertThat(StarkVerifier.verifyAndDescribe(key, proof).tables()).hasSize(1);
            assertRejected(expected, proof, Reason.STATEMENT, "the proof has 1 tables, the expected statement 2");
        }
    }

    @Test
    void aValidProofWithAnotherPublicInputIsRejected() throws Exception {
        TableTrace fib = TestAirs.fibTrace(4, 3);
        TableTrace other = TestAirs.fibTrace(4, 4);
        try {
            byte[] proof = prove(OPTIONS, List.of(other));
            StarkVerifier.verify(key, Statement.ofTraces(List.of(other)), proof);
            assertRejected(Statement.ofTraces(List.of(fib)), proof, Reason.STATEMENT, "public inputs [4, ");
        } finally {
            TestAirs.close(List.of(fib, other));
        }
    }

    @Test
    void aValidProofOfAnotherHeightIsRejectedUnlessTheBoundsAdmitIt() throws Exception {
        TableTrace taller = TestAirs.senderTrace("sender", 6, 1);
        TableTrace receiverOfTaller = TestAirs.bytesTrace(taller);
        try {
            byte[] proof = prove(OPTIONS, List.of(taller, receiverOfTaller));
            assertRejected(expected, proof, Reason.STATEMENT, "height 2^6, the expected statement says 2^5");
            Statement bounded = Statement.of(
                    Statement.tableBetween("sender", TestAirs.SENDER, 4, 6),
                    Statement.table("bytes", TestAirs.BYTES, 8));
            assertThat(StarkVerifier.verify(key, bounded, proof).table("sender").logHeight())
                    .isEqualTo(6);
        } finally {
            TestAirs.close(List.of(taller, receiverOfTaller));
        }
    }

    @Test
    void tablesInAnotherOrderAreRejected() {
        byte[] proof = prove(OPTIONS, List.of(receiver, sender));
        assertRejected(expected, proof, Reason.STATEMENT, "table 0 of the expected statement is 'sender'");
    }

    @Test
    void aValidProofUnderOptionsTheKeyDoesNotAcceptIsRejectedAfterItsOptions() throws Exception {
        byte[] weaker = prove(OPTIONS.withQueries(6), List.of(sender, receiver));
        assertRejected(expected, weaker, Reason.UNACCEPTED_OPTIONS, "not accepted by the verifying key");
        // the same proof under a key that accepts those options verifies
        try (ProvingKey other = ProvingKey.of(List.of(TestAirs.SENDER, TestAirs.BYTES))) {
            StarkVerifier.verify(other.verifyingKey(OPTIONS.withQueries(6), WorkerPool.common()), expected, weaker);
        }
        // and the reader stops right after the options: what follows them is never parsed
        byte[] optionsThenZeros = new byte[weaker.length];
        System.arraycopy(weaker, 0, optionsThenZeros, 0, 4 + 2 + ProofFormat.OPTIONS_BYTES);
        assertRejected(expected, optionsThenZeros, Reason.UNACCEPTED_OPTIONS, "not accepted");
    }

    @Test
    void optionsBelowAKeysMinimumSecurityAreRejected() throws Exception {
        TableTrace fib = TestAirs.fibTrace(4, 3);
        try {
            ProofOptions weak = new ProofOptions(1, 4, 0, 1, 1, "sha256", 0);
            byte[] proof = prove(weak, List.of(fib));
            VerifyingKey anyOptions = VerifyingKey.builder(List.of(TestAirs.FIB))
                    .acceptAtLeast(30)
                    .build();
            assertThatThrownBy(() -> StarkVerifier.verify(anyOptions, Statement.ofTraces(List.of(fib)), proof))
                    .isInstanceOf(ProofRejectedException.class)
                    .hasFieldOrPropertyWithValue("reason", Reason.INSECURE_OPTIONS)
                    .hasMessageContaining("give 4 conjectured bits")
                    .hasMessageContaining("requires 30");
            StarkVerifier.verify(anyOptions.withMinimumSecurityBits(4), Statement.ofTraces(List.of(fib)), proof);
        } finally {
            fib.main().close();
        }
    }

    @Test
    void anExpectationNamingADefinitionTheKeyLacksIsRefusedBeforeReading() {
        Statement unknown = Statement.of(Statement.table("cube", TestAirs.CUBE, 5, 1, 2));
        assertThatThrownBy(() -> StarkVerifier.verify(key, unknown, valid))
                .isInstanceOf(InvalidStatementException.class)
                .hasMessageContaining("'cube'")
                .hasMessageContaining("does not hold");
    }

    @Test
    void aTableBelowItsPeriodicColumnsPeriodIsATypedStatementRejection() throws Exception {
        // the prover refuses the trace...
        try (Matrix four = Matrix.allocate(RamAllocator.shared(), "cube", 4, 1)) {
            assertThatThrownBy(() -> new TableTrace("cube", TestAirs.CUBE, four, new long[] {0, 0}))
                    .isInstanceOf(InvalidTraceException.class)
                    .hasMessageContaining("periodic column 'k' repeats every 8 rows");
        }
        // ...and a proof whose header claims such a height is rejected as a statement, not as an internal failure
        TableTrace cube = TestAirs.cubeTrace(3, 5);
        try (ProvingKey cubeKey = ProvingKey.of(List.of(TestAirs.CUBE))) {
            Proof proof = new StarkProver(cubeKey, OPTIONS, ProverSettings.defaults()).prove(List.of(cube));
            Proof.TableHeader h = proof.tables().get(0);
            Proof shorter =
                    proof.withTables(List.of(new Proof.TableHeader(h.name(), h.airName(), 2, h.publicInputs(), null)));
            VerifyingKey cubeVerifier = cubeKey.verifyingKey(OPTIONS, WorkerPool.common());
            assertThatThrownBy(() -> StarkVerifier.verifyAndDescribe(cubeVerifier, ProofFormat.write(shorter)))
                    .isInstanceOf(ProofRejectedException.class)
                    .hasFieldOrPropertyWithValue("reason", Reason.STATEMENT)
                    .hasMessage(
                            "table 'cube': periodic column 'k' repeats every 8 rows, more than a table of 2^2 rows holds")
                    .hasNoCause();
        } finally {
            cube.main().close();
        }
    }
}
