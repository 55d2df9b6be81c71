package io.jstark.prover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.air.trace.TableTrace;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.ProofRejectedException.Reason;
import io.jstark.protocol.Statement;
import io.jstark.protocol.VerifyingKey;
import io.jstark.verifier.StarkVerifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * This release reads and writes proof format version 2 only: a proof whose header says version 1 (an
 * opening per table, the format before) or any other version is refused as UNSUPPORTED, naming the version
 * and its byte offset, by every reader (verify, verifyAndDescribe, the header reader inspect uses).
 */
class FormatVersionTest {
    static final ProofOptions OPTIONS = new ProofOptions(1, 8, 2, 1, 1, "sha256", 0);

    @TempDir
    Path dir;

    @Test
    void aVersionOneHeaderIsRefusedNamingTheVersion() throws Exception {
        TableTrace trace = TestAirs.fibTrace(5, 3);
        try (ProvingKey key = ProvingKey.of(List.of(TestAirs.FIB))) {
            byte[] valid =
                    ProofFormat.write(new StarkProver(key, OPTIONS, ProverSettings.defaults()).prove(List.of(trace)));
            assertThat(valid[4] | valid[5] << 8)
                    .as("the version field")
                    .isEqualTo(ProofFormat.VERSION)
                    .isEqualTo(2);
            VerifyingKey vk = key.verifyingKey(OPTIONS, WorkerPool.common());
            Statement statement = Statement.ofTraces(List.of(trace));
            StarkVerifier.verify(vk, statement, valid);
            for (int version : new int[] {1, 0, 3, 0xFFFF}) {
                byte[] other = valid.clone();
                other[4] = (byte) version;
                other[5] = (byte) (version >>> 8);
                String message = "proof format version " + version
                        + " is not supported; this verifier reads version 2 (byte offset 4)";
                assertThatThrownBy(() -> StarkVerifier.verify(vk, statement, other))
                        .isInstanceOfSatisfying(
                                ProofRejectedException.class,
                                e -> assertThat(e.reason()).isEqualTo(Reason.UNSUPPORTED))
                        .hasMessageContaining(message);
                assertThatThrownBy(() -> StarkVerifier.verifyAndDescribe(vk, other))
                        .hasMessageContaining(message);
                assertThatThrownBy(() -> ProofFormat.read(other)).hasMessageContaining(message);
                Path file = Files.write(dir.resolve("v" + version + ".bin"), other);
                assertThatThrownBy(() -> ProofFormat.readHeader(file)).hasMessageContaining(message);
                assertThatThrownBy(() -> StarkVerifier.verify(vk, statement, file))
                        .hasMessageContaining(message);
            }
        } finally {
            trace.main().close();
        }
    }
}
