package io.jstark.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.air.Air;
import io.jstark.air.Constraint;
import io.jstark.air.expr.Expr;
import io.jstark.air.program.BatchSource;
import io.jstark.air.program.ConstraintProgram;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import io.jstark.protocol.CompositionLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The compiled constraint engine gives the interpreter's values on the example tables: every table's composition
 * expression (its constraints, LogUp columns, coefficients and divisors) and each of its user constraints, on rows
 * of random leaf values (a real trace would make most constraints zero and hide a wrong operation).
 */
class ConstraintEnginesTest {
    private static final int ROWS = 80;
    private static final int BATCH = 32;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"keccak", "poseidon2", "vm", "mix", "fib"})
    void compiledAndInterpretedProgramsAgreeOnRandomRows(String example) {
        for (Air air : Examples.byName(example).airs()) {
            int logHeight = air.fixedLogHeight() >= 0 ? air.fixedLogHeight() : 10;
            List<Expr> outputs = new ArrayList<>();
            outputs.add(CompositionLayout.of(air, logHeight).expression());
            for (Constraint c : air.userConstraints()) {
                outputs.add(c.expr());
            }
            ConstraintProgram program = ConstraintProgram.compile(outputs);
            ConstraintProgram.Bound interpreted =
                    program.bind(ConstraintEnginesTest::uniform, ConstraintProgram.Engine.INTERPRETED);
            ConstraintProgram.Bound compiled =
                    program.bind(ConstraintEnginesTest::uniform, ConstraintProgram.Engine.COMPILED);
            ConstraintProgram.Workspace wsInterpreted = interpreted.newWorkspace(BATCH);
            ConstraintProgram.Workspace wsCompiled = compiled.newWorkspace(BATCH);
            BatchSource rows = new RandomRows();
            boolean anyExtension = false;
            for (int from = 0; from < ROWS; from += BATCH) {
                int length = Math.min(BATCH, ROWS - from);
                interpreted.evaluate(wsInterpreted, rows, from, length);
                compiled.evaluate(wsCompiled, rows, from, length);
                for (int k = 0; k < outputs.size(); k++) {
                    int limbs = wsInterpreted.outputIsExtension(k) ? 3 : 1;
                    anyExtension |= limbs == 3;
                    assertThat(wsCompiled.outputIsExtension(k)).isEqualTo(wsInterpreted.outputIsExtension(k));
                    for (int c = 0; c < limbs; c++) {
                        assertThat(Arrays.copyOf(wsCompiled.output(k, c), length))
                                .as("%s output %d limb %d rows from %d", air.name(), k, c, from)
                                .containsExactly(Arrays.copyOf(wsInterpreted.output(k, c), length));
                    }
                }
            }
            assertThat(anyExtension)
                    .as("the composition of %s combines with extension coefficients", air.name())
                    .isTrue();
        }
    }

    private static Ext3 uniform(Expr.Leaf leaf) {
        long key = leaf.toString().hashCode();
        return leaf.isExtension() ? new Ext3(value(key, 1), value(key, 2), value(key, 3)) : Ext3.of(value(key, 0));
    }

    /** A canonical pseudo-random element for a key: mostly uniform, sometimes 0, 1 or p - 1. */
    private static long value(long key, long salt) {
        long z = key * 0x9E3779B97F4A7C15L + salt * 0xC2B2AE3D27D4EB4FL;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z ^= z >>> 31;
        return switch ((int) (z & 15)) {
            case 0 -> 0;
            case 1 -> 1;
            case 2 -> Goldilocks.P - 1;
            default -> Goldilocks.reduce(z);
        };
    }

    private static final class RandomRows implements BatchSource {
        @Override
        public void loadBase(Expr.Leaf leaf, int rowStart, int length, long[] dst) {
            long key = leaf.toString().hashCode();
            for (int i = 0; i < length; i++) {
                dst[i] = value(key * 1_000_003L + rowStart + i, 0);
            }
        }

        @Override
        public void loadExtension(Expr.Leaf leaf, int rowStart, int length, long[] dst0, long[] dst1, long[] dst2) {
            long key = leaf.toString().hashCode();
            for (int i = 0; i < length; i++) {
                dst0[i] = value(key * 1_000_003L + rowStart + i, 1);
                dst1[i] = value(key * 1_000_003L + rowStart + i, 2);
                dst2[i] = value(key * 1_000_003L + rowStart + i, 3);
            }
        }
    }
}
