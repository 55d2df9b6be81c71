package io.jstark.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.air.Air;
import io.jstark.air.AirBuilder;
import io.jstark.air.expr.Expr;
import java.util.List;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.GenerationMode;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** The advice of every refusal works when applied: the changed options pass, and every value stays in its range. */
class SecurityAdviceTest {
    /** A table of two columns and one degree-2 constraint. */
    static final Air SQUARE = square();

    private static Air square() {
        AirBuilder b = Air.builder("square");
        Expr.MainCell x = b.main("x");
        Expr.MainCell y = b.main("y");
        b.transition("x' = x * y", x.next().sub(x.mul(y)));
        return b.build();
    }

    /** One square table of 2^logHeight rows. */
    static List<StatementRules.Claim> squareOf(int logHeight) {
        return List.of(StatementRules.Claim.declared("square", SQUARE, logHeight));
    }

    @Property(tries = 3000)
    void everySecurityRemedyReachesTheRequiredBitsWhenApplied(
            @ForAll @IntRange(min = 1, max = 5) int logBlowup,
            @ForAll @IntRange(min = 1, max = 255) int queries,
            @ForAll @IntRange(min = 0, max = 32) int grinding,
            @ForAll @IntRange(min = 0, max = 192) int required,
            @ForAll @IntRange(min = 1, max = 40) int logTallest) {
        ProofOptions options = new ProofOptions(logBlowup, queries, grinding, 2, 3, "sha256", required);
        Security.Report report = Security.of(options, squareOf(logTallest));
        if (report.conjecturedBits() >= required) {
            Security.require(options, squareOf(logTallest));
            return;
        }
        InsufficientSecurityException refusal = org.assertj.core.api.Assertions.catchThrowableOfType(
                InsufficientSecurityException.class, () -> Security.require(options, squareOf(logTallest)));
        assertThat(refusal.remedies()).isNotEmpty();
        boolean reachable = report.hashBits() >= required && report.fieldBits() >= required;
        for (InsufficientSecurityException.Remedy remedy : refusal.remedies()) {
            assertThat(refusal.getMessage()).contains(remedy.advice());
            // ProofOptions' constructor refuses values out of range: that remedy.options() exists is the range check
            ProofOptions applied = remedy.options();
            Security.require(applied, squareOf(logTallest));
            if (applied.requiredSecurityBits() != required) {
                assertThat(reachable)
                        .as("lowering the requirement is advised only where no option reaches it: " + remedy)
                        .isFalse();
                assertThat(refusal.remedies()).hasSize(1);
            }
        }
        if (reachable) {
            // the queries alone (at most 255 of log2(blowup) bits, plus the grinding) can reach what the field and hash
            // allow
            assertThat(refusal.remedies())
                    .allSatisfy(
                            r -> assertThat(r.options().requiredSecurityBits()).isEqualTo(required));
        }
    }

    @Example
    void fiveQueriesAreNotToldToGrindTo32() {
        ProofOptions options = ProofOptions.fast100().withQueries(5);
        assertThatThrownBy(() -> Security.require(options, squareOf(10)))
                .isInstanceOf(InsufficientSecurityException.class)
                .hasMessageContaining("raise --queries to 28")
                .hasMessageNotContaining("--grinding");
    }

    @Property(tries = 300)
    void theBlowupAdviceOfAHighDegreeConstraintIsWithinRangeAndSatisfiesTheRule(
            @ForAll @IntRange(min = 2, max = 80) int degree,
            @ForAll @IntRange(min = 3, max = 20) int logHeight,
            @ForAll @IntRange(min = 1, max = 5) int logBlowup) {
        AirBuilder b = Air.builder("power");
        Expr.MainCell x = b.main("x");
        b.transition("x' = x^d", x.next().sub(x.pow(degree)));
        Air air = b.build();
        ProofOptions options = ProofOptions.fast100().withBlowup(1 << logBlowup);
        List<StatementRules.Claim> claims = List.of(StatementRules.Claim.declared("power", air, logHeight));
        int parts = air.compositionParts(logHeight);
        if (parts <= options.blowup()) {
            StatementRules.check(claims, options);
            return;
        }
        InvalidStatementException refusal = org.assertj.core.api.Assertions.catchThrowableOfType(
                InvalidStatementException.class, () -> StatementRules.check(claims, options));
        assertThat(refusal.getMessage()).contains("composition parts");
        if (parts <= 1 << ProofOptions.MAX_LOG_BLOWUP) {
            ProofOptions applied = refusal.remedy().orElseThrow();
            assertThat(refusal.getMessage()).contains("raise --blowup to " + applied.blowup());
            StatementRules.check(claims, applied);
        } else {
            assertThat(refusal.remedy()).isEmpty();
            assertThat(refusal.getMessage()).doesNotContain("raise --blowup").contains("lower the constraint degree");
        }
    }

    @Example
    void aDegree40ConstraintIsNotToldToUseBlowup64() {
        AirBuilder b = Air.builder("deg40");
        Expr.MainCell x = b.main("x");
        b.transition("x' = x^40", x.next().sub(x.pow(40)));
        Air air = b.build();
        assertThatThrownBy(() -> StatementRules.check(
                        List.of(StatementRules.Claim.declared("deg40", air, 10)), ProofOptions.fast100()))
                .isInstanceOf(InvalidStatementException.class)
                .hasMessageNotContaining("64")
                .hasMessageContaining("the largest blowup is 32");
    }

    @Property(generation = GenerationMode.EXHAUSTIVE)
    void aTablesLdeDomainMustFitTheFieldsTwoAdicSubgroupsAndTheAdviceFits(
            @ForAll @IntRange(min = 1, max = 28) int logHeight, @ForAll @IntRange(min = 1, max = 5) int logBlowup) {
        ProofOptions options = ProofOptions.fast100().withBlowup(1 << logBlowup).withFoldingFactor(2);
        List<StatementRules.Claim> claims = squareOf(logHeight);
        if (logHeight + logBlowup <= 32) {
            assertThat(StatementRules.domainViolation(logHeight, options)).isEmpty();
            StatementRules.check(claims, options);
            return;
        }
        InvalidStatementException refusal = org.assertj.core.api.Assertions.catchThrowableOfType(
                InvalidStatementException.class, () -> StatementRules.check(claims, options));
        assertThat(refusal.table()).isEqualTo("square");
        assertThat(refusal.rule())
                .isEqualTo(StatementRules.domainViolation(logHeight, options).orElseThrow())
                .contains("need an LDE domain of 2^" + (logHeight + logBlowup) + " points")
                .contains("at most 2^32");
        ProofOptions applied = refusal.remedy().orElseThrow();
        assertThat(refusal.rule()).contains("lower --blowup to " + applied.blowup());
        StatementRules.check(claims, applied);
        assertThat(logHeight + applied.logBlowup()).isEqualTo(32);
    }
}
