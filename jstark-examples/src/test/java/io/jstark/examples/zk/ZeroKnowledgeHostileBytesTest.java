package io.jstark.examples.zk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.jstark.air.Air;
import io.jstark.air.trace.TableTrace;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.Statement;
import io.jstark.protocol.VerifyingKey;
import io.jstark.prover.ProverSettings;
import io.jstark.prover.ProvingKey;
import io.jstark.prover.StarkProver;
import io.jstark.verifier.StarkVerifier;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Hostile bytes against a key that accepts any options: every failure must be a ProofRejectedException. */
class ZeroKnowledgeHostileBytesTest {
    private static final int OPTIONS_AT = 6;

    @Test
    void flagFlipsAndRandomBitFlipsAreTypedRejections() throws Exception {
        List<Air> airs = SecretSetStatement.AIRS;
        VerifyingKey any = VerifyingKey.builder(airs).acceptAtLeast(0, "blake3").build();
        ProofOptions plain = new ProofOptions(2, 4, 0, 1, 1, "blake3", 0);
        for (ProofOptions options : List.of(plain, plain.withZeroKnowledge(true))) {
            try (Matrix x = column();
                    Matrix y = column();
                    ProvingKey key = ProvingKey.of(airs)) {
                List<TableTrace> traces = List.of(TableTrace.of(airs.get(0), x), TableTrace.of(airs.get(1), y));
                Statement statement = Statement.ofTraces(traces);
                byte[] bytes =
                        ProofFormat.write(new StarkProver(key, options, ProverSettings.defaults()).prove(traces));
                StarkVerifier.verify(any, statement, bytes);
                for (int bit = 3; bit < 8; bit++) {
                    byte[] flipped = bytes.clone();
                    flipped[OPTIONS_AT] ^= (byte) (1 << bit);
                    expectRejected(
                            any, statement, flipped, "options byte bit " + bit + " zk=" + options.zeroKnowledge());
                }
                Random random = new Random(12345);
                for (int i = 0; i < 600; i++) {
                    byte[] tampered = bytes.clone();
                    int at = random.nextInt(tampered.length);
                    tampered[at] ^= (byte) (1 << random.nextInt(8));
                    expectRejected(any, statement, tampered, "flip at " + at + " zk=" + options.zeroKnowledge());
                }
            }
        }
    }

    private static void expectRejected(VerifyingKey key, Statement statement, byte[] bytes, String what) {
        try {
            StarkVerifier.verify(key, statement, bytes);
            fail("accepted: " + what);
        } catch (ProofRejectedException e) {
            assertThat(e.getMessage()).isNotBlank();
        } catch (Throwable t) {
            fail("untyped failure on " + what + ": " + t, t);
        }
    }

    private static Matrix column() {
        Matrix m = Matrix.allocate(RamAllocator.shared(), "values", 8, 1);
        for (int r = 0; r < 8; r++) {
            m.set(r, 0, 1 + r);
        }
        return m;
    }
}
