package io.jstark.prover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.air.trace.TableTrace;
import io.jstark.protocol.InvalidStatementException;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.ProofRejectedException.Reason;
import io.jstark.protocol.Statement;
import io.jstark.prover.memory.TableDimensions;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The proof format's one name rule (no character that is not visible text, at most 255
 * bytes) and one height range (2^1..2^28), applied by the prover, the reader, the expected statement and
 * the memory planner's table shapes alike.
 */
class NamesAndHeightsTest {
    static final ProofOptions OPTIONS = new ProofOptions(1, 8, 0, 1, 0, "sha256", 0);

    @Test
    void namesMustBeVisibleTextOfAtMost255Bytes() {
        for (String fine : List.of("cpu", "range16", "mémoire", "表", "\uD83D\uDE80 rocket", "x".repeat(255))) {
            assertThat(ProofFormat.nameViolation(fine)).as(fine).isEmpty();
        }
        for (String bad : List.of(
                "a\nb",
                "fib\rVALID",
                "\u001b[2J",
                "tab\there",
                "\u007f",
                "\u0085",
                "abc\u202edcba",
                "zero\u200bwidth",
                "line\u2028sep",
                "lone\uD800",
                "x".repeat(256),
                "é".repeat(128))) {
            assertThat(ProofFormat.nameViolation(bad)).as(bad).isPresent();
        }
        assertThat(ProofFormat.nameViolation("fib\u001b[1A").orElseThrow()).contains("U+001B at index 3");
    }

    @Test
    void theProverRefusesSuchANameAndTheReaderRejectsItWithoutEchoingIt() throws Exception {
        TableTrace honest = TestAirs.fibTrace("fibxx", 4, 1);
        try (ProvingKey key = ProvingKey.of(List.of(TestAirs.FIB))) {
            TableTrace forged = new TableTrace("fib\n\u001b", honest.air(), honest.main(), honest.publicInputs());
            assertThatThrownBy(() -> new StarkProver(key, OPTIONS, ProverSettings.defaults()).prove(List.of(forged)))
                    .isInstanceOf(InvalidStatementException.class)
                    .hasMessageContaining("U+000A at index 3");
            byte[] bytes =
                    ProofFormat.write(new StarkProver(key, OPTIONS, ProverSettings.defaults()).prove(List.of(honest)));
            // "JSTK", version, options, table count, then the first name's u16 length and its bytes
            int nameAt = 4 + 2 + ProofFormat.OPTIONS_BYTES + 2 + 2;
            assertThat(new String(bytes, nameAt, 5, StandardCharsets.UTF_8)).isEqualTo("fibxx");
            bytes[nameAt + 3] = '\n';
            bytes[nameAt + 4] = 0x1b;
            byte[] hostile = bytes;
            assertThatThrownBy(() -> ProofFormat.read(hostile))
                    .isInstanceOf(ProofRejectedException.class)
                    .hasFieldOrPropertyWithValue("reason", Reason.MALFORMED)
                    .hasMessageContaining("table 0 name at byte offset " + (nameAt - 2))
                    .hasMessageContaining("U+000A")
                    .hasMessageNotContaining("\n")
                    .hasMessageNotContaining("\u001b");
        } finally {
            honest.main().close();
        }
    }

    @Test
    void oneHeightRangeForTheFormatTheStatementAndThePlanner() {
        assertThat(ProofFormat.heightViolation(1, 28)).isEmpty();
        for (int[] bad : new int[][] {{0, 0}, {29, 29}, {5, 4}, {1, 29}}) {
            assertThat(ProofFormat.heightViolation(bad[0], bad[1]))
                    .as("%d..%d", bad[0], bad[1])
                    .hasValueSatisfying(m -> assertThat(m).endsWith("2^1..2^28"));
        }
        // the planner's shapes used to allow 2^0..2^30 of their own
        assertThatThrownBy(() -> new TableDimensions("tall", TestAirs.FIB, 29))
                .isInstanceOf(InvalidStatementException.class)
                .hasMessage("table 'tall': height 2^29 is outside 2^1..2^28");
        assertThatThrownBy(() -> new TableDimensions("flat", TestAirs.FIB, 0))
                .isInstanceOf(InvalidStatementException.class)
                .hasMessage("table 'flat': height 2^0 is outside 2^1..2^28");
        assertThatThrownBy(() -> Statement.table("tall", TestAirs.FIB, 29))
                .isInstanceOf(InvalidStatementException.class)
                .hasMessage("table 'tall': in the expected statement: height 2^29 is outside 2^1..2^28");
        assertThatThrownBy(() -> ProofFormat.TableLayout.of("tall", TestAirs.FIB, 29))
                .isInstanceOf(InvalidStatementException.class)
                .hasMessage("table 'tall': height 2^29 is outside 2^1..2^28");
    }
}
