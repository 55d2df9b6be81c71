package io.jstark.bench.stark;

import io.jstark.air.Air;
import io.jstark.air.Constraint;
import io.jstark.air.batch.TraceBatchSource;
import io.jstark.air.expr.Expr;
import io.jstark.air.program.ConstraintProgram;
import io.jstark.air.trace.TableTrace;
import io.jstark.examples.KeccakExample;
import io.jstark.examples.MixExample;
import io.jstark.examples.Poseidon2Example;
import io.jstark.examples.Workload;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.RamAllocator;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The constraint engines on wide tables, one thread: the user constraints of the Keccak-f table (3,182
 * constraints, 32,812 instructions per row), the width-8 Poseidon2 table (1,376, 20,560) or every table of the
 * mix example, evaluated over 2^12 rows of a real trace (a mix table's own height when lower) in batches of
 * {@code batch} rows (the prover's composition uses 512), by the interpreter or by the compiled bytecode. One
 * operation is all the rows of all the tables; constraints x rows per second = the printed constraint-rows / score.
 * With {@code outputs=combined} the constraints are summed by random coefficients into one output, as the prover's
 * composition does. Its setup prints each program's instruction mix ({@code ConstraintProgram.instructionMix()})
 * and the runs of instructions the interpreter fuses ({@code ConstraintProgram.Bound.fusedRuns()}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 5)
@Fork(
        value = 1,
        jvmArgsAppend = {
            "--add-modules",
            "jdk.incubator.vector",
            "--enable-native-access=ALL-UNNAMED",
            "-Xmx4g",
            "-XX:+UseParallelGC"
        })
public class WideConstraintBenchmark {
    private static final int LOG_ROWS = 12;

    @Param({"keccak", "poseidon2", "mix"})
    public String table;

    @Param({"interpreted", "compiled"})
    public String engine;

    @Param({"32", "128", "512"})
    public int batch;

    /**
     * {@code separate}: each constraint its own output; {@code combined}: one output, the sum of coefficient_k *
     * C_k with random extension coefficients, as the prover's composition evaluates them (without the divisors).
     */
    @Param({"separate", "combined"})
    public String outputs;

    private Workload workload;
    private final List<Table> tables = new ArrayList<>();

    /** One table's bound program, its workspace, its rows. */
    private record Table(
            ConstraintProgram.Bound program,
            ConstraintProgram.Workspace workspace,
            TraceBatchSource source,
            int rows) {}

    @Setup(Level.Trial)
    public void setup() {
        workload = switch (table) {
            case "keccak" -> new KeccakExample().generate(LOG_ROWS, 1, RamAllocator.shared());
            case "poseidon2" -> new Poseidon2Example().generate(LOG_ROWS, 1, RamAllocator.shared());
            default -> new MixExample().generate(LOG_ROWS, 1, RamAllocator.shared());
        };
        ConstraintProgram.Engine chosen = ConstraintProgram.Engine.valueOf(engine.toUpperCase(Locale.ROOT));
        long constraintRows = 0;
        for (TableTrace trace : workload.tables()) {
            Air air = trace.air();
            List<Expr> exprs = new ArrayList<>();
            for (Constraint c : air.userConstraints()) {
                exprs.add(c.expr());
            }
            if (exprs.isEmpty()) {
                continue;
            }
            int rows = Math.min(1 << LOG_ROWS, trace.main().rows());
            int rowsPerBatch = Math.min(batch, rows);
            int constraints = exprs.size();
            ConstraintProgram compiled =
                    ConstraintProgram.compile(outputs.equals("combined") ? combined(exprs) : exprs);
            SplittableRandom random = new SplittableRandom(constraints);
            ConstraintProgram.Bound bound =
                    compiled.bind(leaf -> leaf instanceof Expr.Coefficient ? randomExt(random) : null, chosen);
            tables.add(new Table(
                    bound,
                    bound.newWorkspace(rowsPerBatch),
                    new TraceBatchSource(air, trace.main(), null, null),
                    rows));
            constraintRows += (long) constraints * rows;
            System.out.println(air.name() + ": " + constraints + " constraints, " + compiled.instructionCount()
                    + " instructions per row, "
                    + compiled.compiledSteps() + " compiled steps, "
                    + compiled.workspaceBytes(rowsPerBatch, chosen) / 1024
                    + " KiB of workspace at batch " + rowsPerBatch + " (" + engine + ")");
            compiled.instructionMix().forEach((kind, count) -> System.out.println("  " + count + " x " + kind));
            bound.fusedRuns().forEach((kind, count) -> System.out.println("  " + count + " runs fused as " + kind));
        }
        System.out.println(table + ": " + constraintRows + " constraint-rows per operation");
    }

    private static Ext3 randomExt(SplittableRandom random) {
        return new Ext3(
                Goldilocks.reduce(random.nextLong()),
                Goldilocks.reduce(random.nextLong()),
                Goldilocks.reduce(random.nextLong()));
    }

    /** sum over k of coefficient_k * C_k, left-leaning as the composition writes it. */
    private static List<Expr> combined(List<Expr> constraints) {
        Expr sum = null;
        for (int k = 0; k < constraints.size(); k++) {
            Expr term = new Expr.Coefficient(k).mul(constraints.get(k));
            sum = sum == null ? term : sum.add(term);
        }
        return List.of(sum);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        workload.close();
    }

    @Benchmark
    public long evaluate() {
        long sink = 0;
        for (Table t : tables) {
            int step = t.workspace().batchSize();
            for (int from = 0; from < t.rows(); from += step) {
                t.program().evaluate(t.workspace(), t.source(), from, step);
                sink += t.workspace().output(0, 0)[0];
            }
        }
        return sink;
    }
}
