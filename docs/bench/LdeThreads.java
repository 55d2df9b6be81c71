import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.ntt.Lde;
import io.jstark.math.parallel.WorkerPool;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * One LDE kernel on 1 and 2 worker threads, in one JVM: the median wall of REPS calls after 3 unmeasured ones, the
 * process CPU per call, and CPU / wall. The output matrix is allocated once, so its pages are faulted in before the
 * measured calls. Args: logRows columns threads(comma-separated) reps coeff|extend [logBlowup, default 3]. Run by
 * lde-threads.sh and lde-columns.sh.
 */
public class LdeThreads {
    public static void main(String[] args) {
        int logRows = Integer.parseInt(args[0]);
        int columns = Integer.parseInt(args[1]);
        int reps = Integer.parseInt(args[3]);
        boolean coefficients = args[4].equals("coeff");
        int logBlowup = args.length > 5 ? Integer.parseInt(args[5]) : 3;
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        int rows = 1 << logRows;
        Matrix in = Matrix.allocate(RamAllocator.shared(), "in", rows, columns);
        Matrix out = Matrix.allocate(RamAllocator.shared(), "out", rows << logBlowup, columns);
        SplittableRandom random = new SplittableRandom(1);
        long[] column = new long[rows];
        for (int c = 0; c < columns; c++) {
            for (int i = 0; i < rows; i++) {
                column[i] = Goldilocks.reduce(random.nextLong());
            }
            in.writeColumn(c, 0, column, 0, rows);
        }
        for (String t : args[2].split(",")) {
            try (WorkerPool pool = WorkerPool.ofThreads(Integer.parseInt(t))) {
                for (int w = 0; w < 3; w++) {
                    run(coefficients, in, out, pool, logBlowup);
                }
                long[] walls = new long[reps];
                long cpu0 = os.getProcessCpuTime();
                long t0 = System.nanoTime();
                for (int i = 0; i < reps; i++) {
                    long s = System.nanoTime();
                    run(coefficients, in, out, pool, logBlowup);
                    walls[i] = System.nanoTime() - s;
                }
                long cpu = os.getProcessCpuTime() - cpu0;
                long wall = System.nanoTime() - t0;
                Arrays.sort(walls);
                System.out.printf(
                        "%s 2^%d x %d, blowup %d, threads %s: median wall %.1f ms, cpu/call %.1f ms, cpu/wall %.2f%n",
                        args[4], logRows, columns, 1 << logBlowup, t,
                        walls[reps / 2] / 1e6, cpu / 1e6 / reps, (double) cpu / wall);
            }
        }
    }

    private static void run(boolean coefficients, Matrix in, Matrix out, WorkerPool pool, int logBlowup) {
        if (coefficients) {
            Lde.extendCoefficients(in, logBlowup, Goldilocks.GENERATOR, out, pool);
        } else {
            Lde.extend(in, logBlowup, Goldilocks.GENERATOR, out, pool);
        }
    }
}
