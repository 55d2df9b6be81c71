package io.jstark.prover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.air.trace.TableTrace;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.VerifyingKey;
import io.jstark.verifier.StarkVerifier;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/** The verifier on hostile bytes: only typed rejections, never an unchecked exception or an out-of-memory. */
class HostileProofTest {
    static byte[] valid;
    static VerifyingKey key;

    @BeforeContainer
    static void prove() {
        TableTrace sender = TestAirs.senderTrace(4, 5);
        TableTrace bytes = TestAirs.bytesTrace(sender);
        try (ProvingKey pk = ProvingKey.of(List.of(TestAirs.SENDER, TestAirs.BYTES))) {
            Proof proof = new StarkProver(pk, new ProofOptions(1, 4, 2, 1, 1, "sha256", 0), ProverSettings.defaults())
                    .prove(List.of(sender, bytes));
            valid = ProofFormat.write(proof);
            key = pk.verifyingKey().withMinimumSecurityBits(0);
        } finally {
            sender.main().close();
            bytes.main().close();
        }
    }

    @AfterContainer
    static void release() {
        valid = null;
    }

    @Property(tries = 300)
    void randomMutationsAreTypedRejections(@ForAll long seed) {
        Random rnd = new Random(seed);
        byte[] bytes = valid.clone();
        int edits = 1 + rnd.nextInt(4);
        for (int e = 0; e < edits; e++) {
            switch (rnd.nextInt(4)) {
                case 0 -> bytes[rnd.nextInt(bytes.length)] ^= (byte) (1 << rnd.nextInt(8));
                case 1 -> bytes[rnd.nextInt(bytes.length)] = (byte) rnd.nextInt(256);
                case 2 -> {
                    // an absurd length or count: 0xFF.. over a 4-byte window
                    int at = rnd.nextInt(bytes.length - 4);
                    for (int i = 0; i < 4; i++) {
                        bytes[at + i] = (byte) 0xFF;
                    }
                }
                default -> bytes = java.util.Arrays.copyOf(bytes, rnd.nextInt(bytes.length));
            }
        }
        byte[] hostile = bytes;
        assertThatThrownBy(() -> StarkVerifier.verify(key, hostile)).isInstanceOf(ProofRejectedException.class);
    }

    @Property(tries = 100)
    void randomGarbageIsRejected(@ForAll byte[] garbage) {
        assertThatThrownBy(() -> StarkVerifier.verify(key, garbage)).isInstanceOf(ProofRejectedException.class);
    }

    @Property(tries = 1)
    void theUnmodifiedProofVerifies() throws Exception {
        StarkVerifier.verify(key, valid);
        assertThat(StarkVerifier.isValid(key, valid)).isTrue();
    }
}
