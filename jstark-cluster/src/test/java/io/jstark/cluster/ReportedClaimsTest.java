package io.jstark.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.air.Air;
import io.jstark.air.AirBuilder;
import io.jstark.air.expr.Expr;
import io.jstark.cluster.wire.TableClaim;
import io.jstark.math.field.Goldilocks;
import io.jstark.prover.ClaimedTable;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReportedClaimsTest {
    private static final Air COUNTER = counter();

    private static Air counter() {
        AirBuilder b = Air.builder("counter");
        Expr.MainCell a = b.main("a");
        b.transition("a' = a + 1", a.next().sub(a.add(1)));
        b.first("a = start", a.sub(b.publicInput("start")));
        return b.build();
    }

    private static ReportedClaims unreported() {
        return new ReportedClaims(List.of(new ClaimedTable("counter", COUNTER, 4, new long[0])));
    }

    private static TableClaim claim(String name, int logHeight, long start) {
        return TableClaim.newBuilder()
                .setName(name)
                .setLogHeight(logHeight)
                .addPublicInputs(start)
                .build();
    }

    private static ClusterException noMismatchExpected(int table, String what) {
        throw new AssertionError("no earlier report to differ from: table " + table + ", " + what);
    }

    @Test
    void aWorkersReportBecomesTheTablesClaim() {
        ReportedClaims claims = unreported();
        claims.accept("w0", new int[] {0}, List.of(claim("counter", 4, 7)), ReportedClaimsTest::noMismatchExpected);
        assertThat(claims.get(0).publicInputs()).containsExactly(7);
    }

    @Test
    void aPublicInputThatIsNotAFieldElementIsRefusedNamingTheWorker() {
        ReportedClaims claims = unreported();
        assertThatThrownBy(() -> claims.accept(
                        "w0",
                        new int[] {0},
                        List.of(claim("counter", 4, Goldilocks.P)),
                        ReportedClaimsTest::noMismatchExpected))
                .isInstanceOf(ClusterException.class)
                .hasMessageContaining("worker w0")
                .hasMessageContaining("not a canonical field element");
        assertThat(claims.get(0).publicInputs()).isEmpty();
    }

    @Test
    void aReportOfAnotherTableOrHeightIsRefusedNamingTheWorker() {
        assertThatThrownBy(() -> unreported()
                        .accept(
                                "w1",
                                new int[] {0},
                                List.of(claim("other", 4, 1)),
                                ReportedClaimsTest::noMismatchExpected))
                .isInstanceOf(ClusterException.class)
                .hasMessageContaining("worker w1");
        assertThatThrownBy(() -> unreported()
                        .accept(
                                "w1",
                                new int[] {0},
                                List.of(claim("counter", 5, 1)),
                                ReportedClaimsTest::noMismatchExpected))
                .isInstanceOf(ClusterException.class)
                .hasMessageContaining("worker w1");
    }

    @Test
    void aReplacementThatReportsOtherPublicInputsIsAMismatch() {
        ReportedClaims claims = unreported();
        claims.accept("w0", new int[] {0}, List.of(claim("counter", 4, 7)), ReportedClaimsTest::noMismatchExpected);
        assertThatThrownBy(() -> claims.accept(
                        "w1",
                        new int[] {0},
                        List.of(claim("counter", 4, 8)),
                        (table, what) -> new ClusterException("table " + table + " differs in " + what)))
                .isInstanceOf(ClusterException.class)
                .hasMessage("table 0 differs in public inputs");
    }
}
