package io.jstark.crypto.lanes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.Hashers;
import org.junit.jupiter.api.Test;

/**
 * The cold path in auto mode: the scalar kernel until the vector kernel has been compiled in the background,
 * then the vector kernel; small work never starts the warm-up.
 */
class LaneWarmUpTest {
    @Test
    void smallWorkHashesScalarAndLargeWorkSwitchesToTheCompiledKernel() throws InterruptedException {
        Hasher blake3 = Hashers.byName("blake3");
        assumeTrue(System.getProperty(LaneHashing.PROPERTY, "auto").equals("auto"), "auto mode only");
        assumeTrue(
                LaneHashing.vector(blake3)
                        .map(k -> k.lanes() >= LaneHashing.minimumLanes("blake3"))
                        .orElse(false),
                "no blake3 vector kernel chosen on this machine");
        LaneHasher vector = LaneHashing.vector(blake3).orElseThrow();
        if (!LaneHashing.describe(blake3).contains("compiled after")) {
            // nothing has warmed it yet in this JVM: small work leaves it so
            LaneHashing.prepare(blake3, LaneHashing.WARM_UP_MIN_BYTES - 1);
            assertThat(LaneHashing.kernel(blake3)).isSameAs(LaneHashing.scalar(blake3));
            assertThat(LaneHashing.describe(blake3)).contains("warm-up not started");
        }
        LaneHashing.prepare(blake3, LaneHashing.WARM_UP_MIN_BYTES);
        assertThat(LaneHashing.awaitWarmUp(blake3)).isTrue();
        assertThat(LaneHashing.describe(blake3))
                .startsWith(vector.description())
                .contains("compiled after");
        assertThat(LaneHashing.kernel(blake3)).isSameAs(vector);
        // a hash nobody prepared is still scalar
        Hasher sha256 = Hashers.byName("sha256");
        if (LaneHashing.vector(sha256).isPresent()
                && !LaneHashing.describe(sha256).contains("compiled after")) {
            assertThat(LaneHashing.kernel(sha256)).isSameAs(LaneHashing.scalar(sha256));
        }
    }
}
