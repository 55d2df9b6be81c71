package io.jstark.air.program;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.air.expr.Expr;
import io.jstark.air.expr.PointEvaluator;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** The compiled batch program must agree with the point evaluator on every row, for any expression. */
class ConstraintProgramTest {
    private static final int COLUMNS = 4;

    /** Random per-row leaf values; uniform leaves fixed. */
    static final class RandomRows implements BatchSource {
        final long[][] base;
        final Ext3[][] aux;
        final long[] publicInputs;
        final Ext3[] challenges;
        final Ext3 busSum;
        final Ext3[] coefficients;

        RandomRows(Random rnd, int rows) {
            base = new long[3 * COLUMNS + 4][rows];
            for (long[] col : base) {
                for (int r = 0; r < rows; r++) {
                    col[r] = edgeOrRandom(rnd);
                }
            }
            aux = new Ext3[2 * COLUMNS][rows];
            for (Ext3[] col : aux) {
                for (int r = 0; r < rows; r++) {
                    col[r] = new Ext3(edgeOrRandom(rnd), edgeOrRandom(rnd), edgeOrRandom(rnd));
                }
            }
            publicInputs = new long[] {edgeOrRandom(rnd), edgeOrRandom(rnd)};
            challenges = new Ext3[] {randomExt(rnd), randomExt(rnd)};
            busSum = randomExt(rnd);
            coefficients = new Ext3[] {randomExt(rnd), randomExt(rnd), randomExt(rnd)};
        }

        int baseColumn(Expr.Leaf leaf) {
            return switch (leaf) {
                case Expr.MainCell c -> c.column() * 2 + c.rowOffset();
                case Expr.PreprocessedCell c -> 2 * COLUMNS + c.column() * 2 + c.rowOffset() - COLUMNS;
                case Expr.Periodic p -> 3 * COLUMNS + p.index();
                case Expr.Divisor d -> 3 * COLUMNS + 2 + d.group();
                default -> throw new IllegalArgumentException(leaf.toString());
            };
        }

        @Override
        public void loadBase(Expr.Leaf leaf, int rowStart, int length, long[] dst) {
            System.arraycopy(base[baseColumn(leaf)], rowStart, dst, 0, length);
        }

        @Override
        public void loadExtension(Expr.Leaf leaf, int rowStart, int length, long[] d0, long[] d1, long[] d2) {
            Expr.AuxCell c = (Expr.AuxCell) leaf;
            Ext3[] col = aux[c.column() * 2 + c.rowOffset()];
            for (int i = 0; i < length; i++) {
                d0[i] = col[rowStart + i].c0();
                d1[i] = col[rowStart + i].c1();
                d2[i] = col[rowStart + i].c2();
            }
        }

        Ext3 uniform(Expr.Leaf leaf) {
            return switch (leaf) {
                case Expr.Const c -> Ext3.of(c.value());
                case Expr.PublicInput p -> Ext3.of(publicInputs[p.index()]);
                case Expr.Challenge c -> challenges[c.index()];
                case Expr.BusSum b -> busSum;
                case Expr.Coefficient c -> coefficients[c.index()];
                default -> throw new IllegalArgumentException(leaf.toString());
            };
        }

        Ext3 atRow(Expr.Leaf leaf, int row) {
            if (leaf instanceof Expr.AuxCell c) {
                return aux[c.column() * 2 + c.rowOffset()][row];
            }
            return switch (leaf) {
                case Expr.MainCell c -> Ext3.of(base[baseColumn(c)][row]);
                case Expr.PreprocessedCell c -> Ext3.of(base[baseColumn(c)][row]);
                case Expr.Periodic p -> Ext3.of(base[baseColumn(p)][row]);
                case Expr.Divisor d -> Ext3.of(base[baseColumn(d)][row]);
                default -> uniform(leaf);
            };
        }
    }

    static long edgeOrRandom(Random rnd) {
        return switch (rnd.nextInt(8)) {
            case 0 -> 0;
            case 1 -> 1;
            case 2 -> Goldilocks.P - 1;
            default -> Goldilocks.reduce(rnd.nextLong());
        };
    }

    static Ext3 randomExt(Random rnd) {
        return new Ext3(edgeOrRandom(rnd), edgeOrRandom(rnd), edgeOrRandom(rnd));
    }

    static Expr randomLeaf(Random rnd) {
        return switch (rnd.nextInt(11)) {
            case 0 -> new Expr.MainCell(rnd.nextInt(COLUMNS), rnd.nextInt(2));
            case 1 -> new Expr.PreprocessedCell(COLUMNS + rnd.nextInt(COLUMNS) - COLUMNS, rnd.nextInt(2));
            case 2 -> new Expr.AuxCell(rnd.nextInt(COLUMNS), rnd.nextInt(2));
            case 3 -> new Expr.Periodic(rnd.nextInt(2));
            case 4 -> new Expr.Divisor(rnd.nextInt(2));
            case 5 -> Expr.constant(edgeOrRandom(rnd));
            case 6 -> new Expr.PublicInput(rnd.nextInt(2));
            case 7 -> new Expr.Challenge(rnd.nextInt(2));
            case 8 -> new Expr.BusSum();
            case 9 -> new Expr.Coefficient(rnd.nextInt(3));
            default -> new Expr.MainCell(rnd.nextInt(COLUMNS), 0);
        };
    }

    static Expr randomExpr(Random rnd, int depth, List<Expr> pool) {
        if (depth == 0 || rnd.nextInt(5) == 0) {
            if (!pool.isEmpty() && rnd.nextInt(4) == 0) {
                return pool.get(rnd.nextInt(pool.size())); // shared subtree
            }
            return randomLeaf(rnd);
        }
        Expr a = randomExpr(rnd, depth - 1, pool);
        Expr e = switch (rnd.nextInt(5)) {
            case 0 -> a.add(randomExpr(rnd, depth - 1, pool));
            case 1 -> a.sub(randomExpr(rnd, depth - 1, pool));
            case 2 -> a.mul(randomExpr(rnd, depth - 1, pool));
            case 3 -> a.neg();
            default -> a.mul(a); // same operand twice
        };
        pool.add(e);
        return e;
    }

    @Property(tries = 60)
    void batchProgramMatchesPointEvaluation(
            @ForAll long seed,
            @ForAll @IntRange(min = 1, max = 70) int rows,
            @ForAll @IntRange(min = 1, max = 33) int batch) {
        Random rnd = new Random(seed);
        List<Expr> outputs = randomOutputs(rnd);
        RandomRows data = new RandomRows(rnd, rows);
        ConstraintProgram program = ConstraintProgram.compile(outputs);
        for (ConstraintProgram.Engine engine : ConstraintProgram.Engine.values()) {
            assertPointValues(program.bind(data::uniform, engine), outputs, data, rows, batch);
        }
    }

    /** Every row's outputs, evaluated in batches, equal the point evaluator's values. */
    static void assertPointValues(
            ConstraintProgram.Bound bound, List<Expr> outputs, RandomRows data, int rows, int batch) {
        ConstraintProgram.Workspace ws = bound.newWorkspace(batch);
        for (int from = 0; from < rows; from += batch) {
            int len = Math.min(batch, rows - from);
            bound.evaluate(ws, data, from, len);
            for (int r = 0; r < len; r++) {
                int row = from + r;
                PointEvaluator point = new PointEvaluator(leaf -> data.atRow(leaf, row));
                for (int k = 0; k < outputs.size(); k++) {
                    assertThat(valueAt(ws, k, r))
                            .as("%s output %d row %d", bound.engine(), k, row)
                            .isEqualTo(point.evaluate(outputs.get(k)));
                }
            }
        }
    }

    /** Tiny steps put nearly every value in another step than its readers: the spill slots and their reuse. */
    @Property(tries = 60)
    void compiledStepsOfAnySizeGiveTheInterpretersValues(
            @ForAll long seed,
            @ForAll @IntRange(min = 1, max = 40) int rows,
            @ForAll @IntRange(min = 1, max = 17) int batch,
            @ForAll @IntRange(min = 1, max = 600) int stepBudget) {
        Random rnd = new Random(seed);
        List<Expr> outputs = randomOutputs(rnd);
        RandomRows data = new RandomRows(rnd, rows);
        ConstraintProgram program = ConstraintProgram.compile(outputs);
        ConstraintProgram.Bound interpreted = program.bind(data::uniform, ConstraintProgram.Engine.INTERPRETED);
        ConstraintProgram.Bound compiled = program.bindCompiled(data::uniform, stepBudget);
        ConstraintProgram.Workspace wsInterpreted = interpreted.newWorkspace(batch);
        ConstraintProgram.Workspace wsCompiled = compiled.newWorkspace(batch);
        for (int from = 0; from < rows; from += batch) {
            int len = Math.min(batch, rows - from);
            interpreted.evaluate(wsInterpreted, data, from, len);
            compiled.evaluate(wsCompiled, data, from, len);
            for (int r = 0; r < len; r++) {
                for (int k = 0; k < outputs.size(); k++) {
                    assertThat(valueAt(wsCompiled, k, r))
                            .as("output %d row %d", k, from + r)
                            .isEqualTo(valueAt(wsInterpreted, k, r));
                }
            }
        }
    }

    /**
     * The composition's shape, sum of coefficient_k * C_k, in batches long enough for the vector kernels: the
     * products of a coefficient and a base value run fused with the addition that consumes them.
     */
    @Property(tries = 40)
    void aRandomLinearCombinationMatchesPointEvaluation(
            @ForAll long seed,
            @ForAll @IntRange(min = 1, max = 150) int rows,
            @ForAll @IntRange(min = 1, max = 80) int batch) {
        Random rnd = new Random(seed);
        List<Expr> pool = new ArrayList<>();
        Expr sum = null;
        for (int k = 0, terms = 1 + rnd.nextInt(12); k < terms; k++) {
            Expr term = new Expr.Coefficient(rnd.nextInt(3)).mul(randomExpr(rnd, rnd.nextInt(4), pool));
            sum = sum == null ? term : sum.add(term);
        }
        List<Expr> outputs = List.of(sum);
        RandomRows data = new RandomRows(rnd, rows);
        assertPointValues(
                ConstraintProgram.compile(outputs).bind(data::uniform, ConstraintProgram.Engine.INTERPRETED),
                outputs,
                data,
                rows,
                batch);
    }

    /**
     * Each term is computed right before the addition that consumes it, fused with it, so one partial sum is live at a
     * time; each term's columns are loaded right before it, so the workspace does not grow with the number of terms.
     */
    @Test
    void aLinearCombinationOfManyTermsRunsFusedWithFewExtensionRegisters() {
        int terms = 300, batch = 64;
        Expr sum = null;
        for (int k = 0; k < terms; k++) {
            Expr term = new Expr.Coefficient(k).mul(new Expr.MainCell(k, 0).mul(new Expr.MainCell(k, 1)));
            sum = sum == null ? term : sum.add(term);
        }
        ConstraintProgram program = ConstraintProgram.compile(List.of(sum));
        // every term but the first is added right after its product: one fused pair each
        ConstraintProgram.Bound bound = program.bind(leaf -> Ext3.ONE, ConstraintProgram.Engine.INTERPRETED);
        assertThat(((Interpreter) bound.evaluator()).fusedRuns().get(Fusion.Kind.SCALED_EXT_SUM))
                .isEqualTo(terms - 1);
        // a few base registers, a few extension registers (3 limbs each) and the output (3 limbs)
        long workspaceBound = (long) Long.BYTES * batch * (4 + 3 * 4 + 3);
        assertThat(program.workspaceBytes(batch, ConstraintProgram.Engine.INTERPRETED))
                .isLessThanOrEqualTo(workspaceBound);
    }

    /** The pair's summand is an extension leaf first read by the sum: it is loaded before the fused kernel runs. */
    @Test
    void aFusedSumLoadsItsLeafSummandFirst() {
        Expr sum = new Expr.AuxCell(0, 0).add(new Expr.Challenge(0).mul(new Expr.MainCell(0, 0)));
        List<Expr> outputs = List.of(sum);
        RandomRows data = new RandomRows(new Random(3), 70);
        ConstraintProgram.Bound bound =
                ConstraintProgram.compile(outputs).bind(data::uniform, ConstraintProgram.Engine.INTERPRETED);

        assertThat(((Interpreter) bound.evaluator()).fusedRuns().get(Fusion.Kind.SCALED_EXT_SUM))
                .isEqualTo(1);
        assertPointValues(bound, outputs, data, 70, 64);
    }

    @Test
    void aWorkspaceOfTheOtherEngineIsRefused() {
        ConstraintProgram program =
                ConstraintProgram.compile(List.of(new Expr.MainCell(0, 0).mul(new Expr.MainCell(1, 0))));
        RandomRows data = new RandomRows(new Random(1), 4);
        ConstraintProgram.Bound compiled = program.bind(data::uniform, ConstraintProgram.Engine.COMPILED);
        ConstraintProgram.Bound interpreted = program.bind(data::uniform, ConstraintProgram.Engine.INTERPRETED);
        assertThatThrownBy(() -> compiled.evaluate(interpreted.newWorkspace(4), data, 0, 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("COMPILED");
        assertThatThrownBy(() -> interpreted.evaluate(compiled.newWorkspace(4), data, 0, 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("INTERPRETED");
    }

    private static List<Expr> randomOutputs(Random rnd) {
        List<Expr> pool = new ArrayList<>();
        List<Expr> outputs = new ArrayList<>();
        int count = 1 + rnd.nextInt(6);
        for (int i = 0; i < count; i++) {
            outputs.add(randomExpr(rnd, 1 + rnd.nextInt(6), pool));
        }
        return outputs;
    }

    private static Ext3 valueAt(ConstraintProgram.Workspace ws, int k, int r) {
        long c1 = ws.outputIsExtension(k) ? ws.output(k, 1)[r] : 0;
        long c2 = ws.outputIsExtension(k) ? ws.output(k, 2)[r] : 0;
        return new Ext3(ws.output(k, 0)[r], c1, c2);
    }

    @Test
    void equalSubtreesAreMergedAndUniformSubtreesFolded() {
        Expr a = new Expr.MainCell(0, 0);
        Expr b = new Expr.MainCell(1, 0);
        // (a*b) written twice as distinct objects, plus a constant subtree 3*4 that must fold away
        Expr e1 = a.mul(b).add(Expr.constant(3).mul(4));
        Expr e2 = new Expr.MainCell(0, 0).mul(new Expr.MainCell(1, 0));
        ConstraintProgram program = ConstraintProgram.compile(List.of(e1, e2));
        // one mul shared by both outputs, one add of the folded constant
        assertThat(program.instructionCount()).isEqualTo(2);
        assertThat(program.varyingLeaves()).hasSize(2);
    }

    @Test
    void instructionMixCountsEachKindOfInstructionOnce() {
        Expr a = new Expr.MainCell(0, 0);
        Expr b = new Expr.MainCell(1, 0);
        // xor of two bits, a + b - 2ab, and a's booleanity a * (a - 1)
        Expr xor = a.add(b).sub(Expr.constant(2).mul(a.mul(b)));
        // a constant on the right runs the same kernel as one on the left: the same kind
        Expr scaled = b.mul(3);
        Expr boolean0 = a.mul(a.sub(1));
        ConstraintProgram program = ConstraintProgram.compile(List.of(xor, boolean0, scaled));
        assertThat(program.instructionMix())
                .containsExactly(
                        java.util.Map.entry("add varying_base <- varying_base, varying_base", 1),
                        java.util.Map.entry("mul varying_base <- varying_base, varying_base", 2),
                        java.util.Map.entry("mul varying_base <- uniform_base, varying_base", 2),
                        java.util.Map.entry("sub varying_base <- varying_base, varying_base", 1),
                        java.util.Map.entry("sub varying_base <- varying_base, uniform_base", 1));
        assertThat(program.instructionMix().values().stream()
                        .mapToInt(Integer::intValue)
                        .sum())
                .isEqualTo(program.instructionCount());
    }
}
