import io.jstark.air.Air;
import io.jstark.air.Constraint;
import io.jstark.air.batch.TraceBatchSource;
import io.jstark.air.expr.Expr;
import io.jstark.air.program.ConstraintProgram;
import io.jstark.air.trace.TableTrace;
import io.jstark.examples.KeccakExample;
import io.jstark.examples.Workload;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.ExtColumn;
import io.jstark.math.field.ExtKernels;
import io.jstark.math.field.FieldKernels;
import io.jstark.math.field.FusedKernels;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.RamAllocator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Where the Keccak table's constraint evaluation goes, kernel by kernel: each of the interpreter's fused kernels
 * timed alone over 64 registers of 512 rows (256 KiB, so from L2 rather than L1; the interpreter's registers for a
 * batch are larger still), the best of 30 rounds of 2,000 calls, in ns per row, times the number of runs of that
 * kind in the Keccak table's combined program (3,182 constraints summed by random coefficients, as the prover's
 * composition and WideConstraintBenchmark's combined program); beside it, that program evaluated on 2^12 rows of a
 * real trace in batches of 512 (median of 15), in ns per row. What the fused runs leave of the measured time is the
 * unfused instructions, the interpreter's dispatch, the leaves' loads and the memory beyond L2. One thread. Run by
 * kernel-costs.sh with the bench jar on the class path.
 */
public class KernelCosts {
    private static final int BATCH = 512;
    private static final int REGISTERS = 64;
    private static final int LOG_ROWS = 12;

    @FunctionalInterface
    private interface Kernel {
        void run(long[] a, long[] b, long[] c, long[] out);
    }

    public static void main(String[] args) {
        SplittableRandom random = new SplittableRandom(1);
        long[][] registers = new long[REGISTERS][BATCH];
        for (long[] register : registers) {
            for (int i = 0; i < BATCH; i++) {
                register[i] = Goldilocks.reduce(random.nextLong());
            }
        }
        Ext3 scale = randomExt(random);
        long[][] accumulator = {new long[BATCH], new long[BATCH], new long[BATCH]};
        ExtColumn sum = new ExtColumn(accumulator[0], accumulator[1], accumulator[2]);
        Map<String, Kernel> kernels = new LinkedHashMap<>();
        kernels.put("xor", (a, b, c, out) -> FusedKernels.xor(a, 0, b, 0, out, 0, BATCH));
        kernels.put("add_scaled", (a, b, c, out) -> FusedKernels.addScaled(a, 0, b, 0, 1L << 7, out, 0, BATCH));
        kernels.put("sub_product", (a, b, c, out) -> FusedKernels.subProduct(a, 0, b, 0, c, 0, out, 0, BATCH));
        kernels.put("mul_offset", (a, b, c, out) -> FusedKernels.mulOffset(a, 0, b, 0, 1, out, 0, BATCH));
        kernels.put("scaled_ext_sum", (a, b, c, out) -> ExtKernels.addScaledBase(a, 0, scale, sum, 0, BATCH));
        kernels.put("mul (unfused)", (a, b, c, out) -> FieldKernels.mul(a, 0, b, 0, out, 0, BATCH));
        kernels.put("add (unfused)", (a, b, c, out) -> FieldKernels.add(a, 0, b, 0, out, 0, BATCH));
        kernels.put("copy (a leaf's load from L2)", (a, b, c, out) -> System.arraycopy(a, 0, out, 0, BATCH));
        Map<String, Double> nsPerRow = new LinkedHashMap<>();
        for (int pass = 0; pass < 3; pass++) {
            for (Map.Entry<String, Kernel> k : kernels.entrySet()) {
                nsPerRow.put(k.getKey(), time(k.getValue(), registers));
            }
        }
        try (Workload workload = new KeccakExample().generate(LOG_ROWS, 1, RamAllocator.shared())) {
            TableTrace trace = workload.tables().get(0);
            Air air = trace.air();
            ConstraintProgram program = ConstraintProgram.compile(List.of(combined(air)));
            ConstraintProgram.Bound bound = program.bind(
                    leaf -> leaf instanceof Expr.Coefficient ? randomExt(random) : null,
                    ConstraintProgram.Engine.INTERPRETED);
            Map<String, Integer> runs = bound.fusedRuns();
            ConstraintProgram.Workspace workspace = bound.newWorkspace(BATCH);
            TraceBatchSource source = new TraceBatchSource(air, trace.main(), null, null);
            int rows = 1 << LOG_ROWS;
            double[] perRow = new double[15];
            for (int round = -5; round < perRow.length; round++) {
                long start = System.nanoTime();
                for (int from = 0; from < rows; from += BATCH) {
                    bound.evaluate(workspace, source, from, BATCH);
                }
                if (round >= 0) {
                    perRow[round] = (System.nanoTime() - start) / (double) rows;
                }
            }
            Arrays.sort(perRow);
            double measured = perRow[perRow.length / 2];
            System.out.printf(
                    "Keccak-f combined program: %d instructions per row, measured %.0f ns per row%n",
                    program.instructionCount(), measured);
            double fusedTotal = 0;
            for (Map.Entry<String, Integer> run : runs.entrySet()) {
                double ns = nsPerRow.get(run.getKey());
                double cost = ns * run.getValue();
                fusedTotal += cost;
                System.out.printf(
                        "  %-16s %5d runs x %.3f ns per row = %6.0f ns per row (%4.1f%% of measured)%n",
                        run.getKey(), run.getValue(), ns, cost, 100 * cost / measured);
            }
            System.out.printf(
                    "  fused runs from L2: %.0f ns per row (%.1f%% of measured)%n",
                    fusedTotal, 100 * fusedTotal / measured);
            for (String other : List.of("mul (unfused)", "add (unfused)", "copy (a leaf's load from L2)")) {
                System.out.printf("  one %s: %.3f ns per row%n", other, nsPerRow.get(other));
            }
        }
    }

    private static double time(Kernel kernel, long[][] registers) {
        double best = Double.MAX_VALUE;
        for (int round = 0; round < 30; round++) {
            long start = System.nanoTime();
            for (int call = 0; call < 2000; call++) {
                int a = call % REGISTERS, b = (7 * call + 3) % REGISTERS, c = (11 * call + 1) % REGISTERS;
                int out = (13 * call + 5) % REGISTERS;
                while (out == a || out == b || out == c) {
                    out = (out + 1) % REGISTERS;
                }
                kernel.run(registers[a], registers[b], registers[c], registers[out]);
            }
            best = Math.min(best, (System.nanoTime() - start) / 2000.0 / BATCH);
        }
        return best;
    }

    private static Expr combined(Air air) {
        List<Expr> constraints = new ArrayList<>();
        for (Constraint c : air.userConstraints()) {
            constraints.add(c.expr());
        }
        Expr sum = null;
        for (int k = 0; k < constraints.size(); k++) {
            Expr term = new Expr.Coefficient(k).mul(constraints.get(k));
            sum = sum == null ? term : sum.add(term);
        }
        return sum;
    }

    private static Ext3 randomExt(SplittableRandom random) {
        return new Ext3(
                Goldilocks.reduce(random.nextLong()),
                Goldilocks.reduce(random.nextLong()),
                Goldilocks.reduce(random.nextLong()));
    }
}
