package io.jstark.math.ntt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.instrument.SpanRecord;
import io.jstark.instrument.SpanRecorder;
import io.jstark.instrument.Spans;
import io.jstark.math.FieldSamples;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class LdeTest {
    private static final long SHIFT = Goldilocks.GENERATOR;
    // daemon workers, shared by JUnit tests and jqwik properties (which run after JUnit's @AfterAll)
    private static final WorkerPool ONE = WorkerPool.ofThreads(1);
    private static final WorkerPool THREE = WorkerPool.ofThreads(3);
    /** More threads than the test matrices have columns: the "narrow" strategies. */
    private static final WorkerPool EIGHT = WorkerPool.ofThreads(8);

    private static Matrix matrix(String label, int rows, int columns) {
        return Matrix.allocate(RamAllocator.shared(), label, rows, columns);
    }

    private static Matrix randomMatrix(SplittableRandom random, int rows, int columns) {
        Matrix m = matrix("random", rows, columns);
        for (int c = 0; c < columns; c++) {
            m.writeColumn(c, 0, FieldSamples.elements(random, rows), 0, rows);
        }
        return m;
    }

    private static long horner(long[] coeffs, long x) {
        long acc = 0;
        for (int i = coeffs.length - 1; i >= 0; i--) {
            acc = Goldilocks.add(Goldilocks.mul(acc, x), coeffs[i]);
        }
        return acc;
    }

    /** Coefficients of the polynomial through trace[i] at w_n^i, by the naive inverse DFT. */
    private static long[] naiveInterpolate(long[] trace) {
        int n = trace.length;
        int logN = Integer.numberOfTrailingZeros(n);
        long wInv = Goldilocks.inverse(Goldilocks.twoAdicGenerator(logN));
        long nInv = Goldilocks.inverse(n);
        long[] coeffs = new long[n];
        for (int i = 0; i < n; i++) {
            long acc = 0;
            long step = Goldilocks.pow(wInv, i);
            long x = 1;
            for (int j = 0; j < n; j++) {
                acc = Goldilocks.add(acc, Goldilocks.mul(trace[j], x));
                x = Goldilocks.mul(x, step);
            }
            coeffs[i] = Goldilocks.mul(acc, nInv);
        }
        return coeffs;
    }

    @Test
    void extendAgreesWithDirectEvaluationOnTheCoset() {
        SplittableRandom random = new SplittableRandom(1);
        // 3 columns: wide on three threads, narrow on eight; 9 and 25: column by column on three, on eight 9 is wide
        for (WorkerPool pool : new WorkerPool[] {THREE, EIGHT}) {
            for (int logN : new int[] {0, 1, 3, 6}) {
                for (int logBlowup = 1; logBlowup <= 5; logBlowup++) {
                    int n = 1 << logN, bigN = n << logBlowup;
                    int columns = logN == 3 ? 25 : logN == 6 ? 9 : 3;
                    try (Matrix trace = randomMatrix(random, n, columns);
                            Matrix lde = matrix("lde", bigN, columns)) {
                        Lde.extend(trace, logBlowup, SHIFT, lde, pool);
                        for (int c = 0; c < columns; c++) {
                            long[] coeffs = naiveInterpolate(trace.columnToArray(c));
                            for (int row = 0; row < bigN; row++) {
                                long x = BitReversedCoset.point(logN + logBlowup, SHIFT, row);
                                assertThat(lde.get(row, c))
                                        .as(
                                                "logN=%d blowup=2^%d column=%d of %d, row=%d",
                                                logN, logBlowup, c, columns, row)
                                        .isEqualTo(horner(coeffs, x));
                            }
                        }
                    }
                }
            }
        }
    }

    @Test
    void withShiftOneBlockZeroIsTheTraceInBitReversedOrder() {
        SplittableRandom random = new SplittableRandom(2);
        int logN = 7, logBlowup = 3;
        try (Matrix trace = randomMatrix(random, 1 << logN, 2);
                Matrix lde = matrix("lde", 1 << (logN + logBlowup), 2)) {
            Lde.extend(trace, logBlowup, 1, lde, ONE);
            for (int c = 0; c < 2; c++) {
                for (int q = 0; q < (1 << logN); q++) {
                    assertThat(lde.get(q, c)).isEqualTo(trace.get(BitReversedCoset.reverseBits(q, logN), c));
                }
            }
        }
    }

    @Test
    void parallelAndSequentialExtensionsAreIdentical() {
        SplittableRandom random = new SplittableRandom(3);
        // 9 columns on 3 threads, 8 with blowup 1, and 25 (more than 8 rounds, one left over): column by column; 6 on 3
        // threads: whole rounds side by side; 5 columns (one left over) and 2 columns x 2 blocks >= 3 threads:
        // (column, block) tasks; 1 column x 2 blocks < 3 threads: transforms split across the pool
        int[][] shapes = {{10, 9, 2}, {9, 8, 0}, {9, 25, 1}, {10, 6, 2}, {10, 5, 2}, {14, 2, 1}, {14, 1, 2}, {14, 1, 1}
        };
        for (int[] shape : shapes) {
            int logN = shape[0], columns = shape[1], logBlowup = shape[2];
            int n = 1 << logN;
            try (Matrix trace = randomMatrix(random, n, columns);
                    Matrix sequential = matrix("seq", n << logBlowup, columns);
                    Matrix parallel = matrix("par", n << logBlowup, columns);
                    Matrix common = matrix("common", n << logBlowup, columns)) {
                Lde.extend(trace, logBlowup, SHIFT, sequential, ONE);
                Lde.extend(trace, logBlowup, SHIFT, parallel, THREE);
                Lde.extend(trace, logBlowup, SHIFT, common, WorkerPool.common());
                assertThat(parallel.segment().mismatch(sequential.segment())).isEqualTo(-1);
                assertThat(common.segment().mismatch(sequential.segment())).isEqualTo(-1);
                // spot check against direct evaluation
                long[] coeffs = trace.columnToArray(columns - 1);
                Ntt.inverseNaturalToNatural(coeffs, 0, logN);
                for (int row : new int[] {0, 1, 77, (n << logBlowup) - 1}) {
                    assertThat(sequential.get(row, columns - 1))
                            .isEqualTo(horner(coeffs, BitReversedCoset.point(logN + logBlowup, SHIFT, row)));
                }
            }
        }
    }

    /**
     * Four columns on three threads: the interpolations run three side by side and split the fourth's transform across
     * the pool (sizes large enough to split), the extensions run every (column, block) pair as a task.
     */
    @Test
    void aColumnLeftOverFromWholeRoundsGivesTheSequentialValues() {
        SplittableRandom random = new SplittableRandom(6);
        int logN = 14, logBlowup = 1, columns = 4;
        int n = 1 << logN, bigN = n << logBlowup;
        try (Matrix trace = randomMatrix(random, n, columns);
                Matrix sequential = matrix("seq", bigN, columns);
                Matrix parallel = matrix("par", bigN, columns);
                Matrix fromCoefficients = matrix("coefficients", bigN, columns);
                Matrix back = matrix("back", n, columns);
                Matrix backSequential = matrix("back-seq", n, columns)) {
            Lde.extend(trace, logBlowup, SHIFT, sequential, ONE);
            Lde.extend(trace, logBlowup, SHIFT, parallel, THREE);
            assertThat(parallel.segment().mismatch(sequential.segment())).isEqualTo(-1);
            Lde.interpolateCoset(sequential, SHIFT, backSequential, ONE);
            Lde.interpolateCoset(parallel, SHIFT, back, THREE);
            assertThat(back.segment().mismatch(backSequential.segment())).isEqualTo(-1);
            Lde.extendCoefficients(back, logBlowup, SHIFT, fromCoefficients, THREE);
            assertThat(fromCoefficients.segment().mismatch(sequential.segment()))
                    .isEqualTo(-1);
        }
    }

    @Test
    void extendCoefficientsEvaluatesTheGivenPolynomials() {
        SplittableRandom random = new SplittableRandom(4);
        int logN = 5, logBlowup = 2;
        int n = 1 << logN, bigN = n << logBlowup;
        try (Matrix coeffs = randomMatrix(random, n, 4);
                Matrix lde = matrix("lde", bigN, 4);
                Matrix narrow = matrix("narrow", bigN, 4)) {
            Lde.extendCoefficients(coeffs, logBlowup, SHIFT, lde, THREE);
            Lde.extendCoefficients(coeffs, logBlowup, SHIFT, narrow, EIGHT);
            assertThat(narrow.segment().mismatch(lde.segment())).isEqualTo(-1);
            for (int c = 0; c < 4; c++) {
                long[] p = coeffs.columnToArray(c);
                for (int row = 0; row < bigN; row++) {
                    assertThat(lde.get(row, c))
                            .isEqualTo(horner(p, BitReversedCoset.point(logN + logBlowup, SHIFT, row)));
                }
            }
        }
    }

    @Test
    void interpolateCosetUndoesExtend() {
        SplittableRandom random = new SplittableRandom(5);
        int logN = 6, logBlowup = 3;
        int n = 1 << logN, bigN = n << logBlowup;
        try (Matrix trace = randomMatrix(random, n, 3);
                Matrix lde = matrix("lde", bigN, 3);
                Matrix all = matrix("coeffs", bigN, 3);
                Matrix low = matrix("low", n, 3)) {
            Lde.extend(trace, logBlowup, SHIFT, lde, THREE);
            Lde.interpolateCoset(lde, SHIFT, all, THREE);
            Lde.interpolateCoset(lde, SHIFT, low, ONE);
            for (int c = 0; c < 3; c++) {
                long[] coeffs = trace.columnToArray(c);
                Ntt.inverseNaturalToNatural(coeffs, 0, logN);
                for (int i = 0; i < bigN; i++) {
                    assertThat(all.get(i, c)).isEqualTo(i < n ? coeffs[i] : 0);
                }
                assertThat(low.columnToArray(c)).isEqualTo(coeffs);
            }
        }
    }

    @Test
    void interpolateCosetSplitsIntoParts() {
        SplittableRandom random = new SplittableRandom(6);
        int logBigN = 8, parts = 4, columns = 2;
        int bigN = 1 << logBigN, partRows = bigN / parts;
        // arbitrary values on the coset: a polynomial of degree < N
        try (Matrix evals = randomMatrix(random, bigN, columns);
                Matrix split = matrix("parts", partRows, columns * parts)) {
            Lde.interpolateCoset(evals, SHIFT, split, THREE);
            for (int c = 0; c < columns; c++) {
                long[] coeffs = new long[bigN];
                for (int part = 0; part < parts; part++) {
                    split.readColumn(part * columns + c, 0, coeffs, part * partRows, partRows);
                }
                for (int row = 0; row < bigN; row++) {
                    assertThat(horner(coeffs, BitReversedCoset.point(logBigN, SHIFT, row)))
                            .isEqualTo(evals.get(row, c));
                }
            }
        }
    }

    /**
     * One column on three threads is interpolated in ranges across the pool; parts of 40,000 rows are not whole
     * ranges, so ranges end inside a part and parts begin inside a range.
     */
    @Test
    void aSplitColumnWritesItsPartsAcrossRangeBoundaries() {
        SplittableRandom random = new SplittableRandom(8);
        int logBigN = 17, parts = 3, partRows = 40_000;
        int bigN = 1 << logBigN, keep = parts * partRows;
        long[] coefficients = new long[bigN];
        for (int i = 0; i < keep; i++) {
            coefficients[i] = Goldilocks.reduce(random.nextLong());
        }
        try (Matrix coefficientMatrix = matrix("coefficients", bigN, 1);
                Matrix evals = matrix("evals", bigN, 1);
                Matrix split = matrix("parts", partRows, parts);
                Matrix splitSequential = matrix("parts-seq", partRows, parts)) {
            coefficientMatrix.writeColumn(0, 0, coefficients, 0, bigN);
            Lde.extendCoefficients(coefficientMatrix, 0, SHIFT, evals, THREE);
            Lde.interpolateCoset(evals, SHIFT, split, THREE);
            Lde.interpolateCoset(evals, SHIFT, splitSequential, ONE);
            assertThat(split.segment().mismatch(splitSequential.segment())).isEqualTo(-1);
            for (int part = 0; part < parts; part++) {
                assertThat(split.columnToArray(part))
                        .isEqualTo(Arrays.copyOfRange(coefficients, part * partRows, (part + 1) * partRows));
            }
        }
    }

    @Test
    void interpolateCosetRejectsPolynomialsOfTooHighDegree() {
        SplittableRandom random = new SplittableRandom(7);
        try (Matrix evals = randomMatrix(random, 64, 1);
                Matrix tooFew = matrix("parts", 16, 2)) {
            assertThatThrownBy(() -> Lde.interpolateCoset(evals, SHIFT, tooFew, ONE))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("nonzero coefficient of degree");
        }
    }

    @Property(tries = 12)
    void extendThenInterpolateRoundTrips(
            @ForAll @IntRange(min = 0, max = 9) int logN,
            @ForAll @IntRange(min = 0, max = 5) int logBlowup,
            @ForAll @IntRange(min = 1, max = 4) int columns,
            @ForAll long seed) {
        int n = 1 << logN, bigN = n << logBlowup;
        long shift = Goldilocks.pow(Goldilocks.GENERATOR, 1 + (seed & 0xFF));
        try (Matrix trace = randomMatrix(new SplittableRandom(seed), n, columns);
                Matrix lde = matrix("lde", bigN, columns);
                Matrix back = matrix("back", n, columns)) {
            Lde.extend(trace, logBlowup, shift, lde, THREE);
            Lde.interpolateCoset(lde, shift, back, THREE);
            Lde.extend(trace, logBlowup, shift, lde, THREE);
            for (int c = 0; c < columns; c++) {
                long[] coeffs = trace.columnToArray(c);
                Ntt.inverseNaturalToNatural(coeffs, 0, logN);
                assertThat(back.columnToArray(c)).isEqualTo(coeffs);
            }
        }
    }

    @Test
    void domainPointsFollowTheBitReversedConvention() {
        int logBigN = 6;
        long w = Goldilocks.twoAdicGenerator(logBigN);
        assertThat(BitReversedCoset.point(logBigN, SHIFT, 0)).isEqualTo(SHIFT);
        for (int row = 0; row < (1 << logBigN); row += 2) {
            // rows 2i and 2i+1 hold x and -x
            assertThat(BitReversedCoset.point(logBigN, SHIFT, row + 1))
                    .isEqualTo(Goldilocks.neg(BitReversedCoset.point(logBigN, SHIFT, row)));
        }
        assertThat(BitReversedCoset.point(logBigN, SHIFT, 1 << (logBigN - 1))).isEqualTo(Goldilocks.mul(SHIFT, w));
        long[] trace = Lde.traceDomainBitReversed(4);
        assertThat(Lde.traceDomainBitReversed(4)).isSameAs(trace);
        for (int q = 0; q < 16; q++) {
            assertThat(trace[q]).isEqualTo(BitReversedCoset.point(4, 1, q));
        }
    }

    /** The same columns by each schedule: column by column, wide (column, block) tasks, and one column at a time. */
    @Test
    void everyScheduleGivesTheSameExtension() {
        SplittableRandom random = new SplittableRandom(7);
        int logN = 9, logBlowup = 2, columns = 9;
        assertThat(Lde.extendsColumnByColumn(columns, THREE.parallelism())).isTrue();
        assertThat(Lde.extendsColumnByColumn(columns, EIGHT.parallelism())).isFalse();
        assertThat(Lde.extendRereadsOutput(columns, EIGHT.parallelism())).isTrue();
        try (Matrix trace = randomMatrix(random, 1 << logN, columns);
                Matrix byColumn = matrix("by-column", 1 << (logN + logBlowup), columns);
                Matrix byPairs = matrix("by-pairs", 1 << (logN + logBlowup), columns);
                Matrix one = matrix("one", 1 << logN, 1);
                Matrix oneLde = matrix("one-lde", 1 << (logN + logBlowup), 1)) {
            Lde.extend(trace, logBlowup, SHIFT, byColumn, THREE);
            Lde.extend(trace, logBlowup, SHIFT, byPairs, EIGHT);
            assertThat(byColumn.segment().mismatch(byPairs.segment())).isEqualTo(-1);
            for (int c = 0; c < columns; c++) {
                one.writeColumn(0, 0, trace.columnToArray(c), 0, 1 << logN);
                Lde.extend(one, logBlowup, SHIFT, oneLde, THREE);
                assertThat(oneLde.columnToArray(0)).as("column %d", c).isEqualTo(byColumn.columnToArray(c));
            }
        }
    }

    @Test
    void columnByColumnNeedsEightColumnsInWholeRoundsOrEightRounds() {
        assertThat(Lde.extendsColumnByColumn(7, 1)).isFalse();
        assertThat(Lde.extendsColumnByColumn(8, 1)).isTrue();
        assertThat(Lde.extendsColumnByColumn(8, 2)).isTrue();
        assertThat(Lde.extendsColumnByColumn(9, 2)).isFalse();
        assertThat(Lde.extendsColumnByColumn(16, 16)).isTrue();
        assertThat(Lde.extendsColumnByColumn(127, 16)).isFalse();
        assertThat(Lde.extendsColumnByColumn(129, 16)).isTrue();
        // the wide schedules that are not column by column keep the coefficients in the output; narrow ones do not
        assertThat(Lde.extendRereadsOutput(9, 2)).isTrue();
        assertThat(Lde.extendRereadsOutput(8, 2)).isFalse();
        assertThat(Lde.extendRereadsOutput(3, 4)).isFalse();
    }

    @Test
    void scratchEstimateCountsBuffersPerRunningTask() {
        long column = 8L << 20;
        long pairTask = column + 8L * 4096; // a column buffer and a segment of powers
        // column by column: 17 running columns (16 workers and the caller) with two buffers each + every block's powers
        assertThat(Lde.extendScratchBytes(1 << 20, 96, 3, 16)).isEqualTo(column * (17 * 2 + 8));
        assertThat(Lde.extendScratchBytes(1 << 20, 96, 0, 16)).isEqualTo(column * (17 + 1));
        // eight rounds and more with a partial one, a single block and few rows: extendCoefficients' 3 running (column,
        // block) tasks, a 1,024-row buffer and segment each, need more than extend's column by column
        assertThat(Lde.extendScratchBytes(1 << 10, 17, 0, 2)).isEqualTo(3 * 8L * (1024 + 1024));
        // wide, whole rounds of fewer than eight columns: 4 running columns + one table of powers
        assertThat(Lde.extendScratchBytes(1 << 20, 4, 3, 4)).isEqualTo(column * 5);
        // wide with columns left over: 17 running (column, block) tasks
        assertThat(Lde.extendScratchBytes(1 << 20, 100, 3, 16)).isEqualTo(pairTask * 17);
        // narrow with enough (column, block) tasks: the heap coefficient columns + the running tasks (16 of 16, 17 of
        // 24)
        assertThat(Lde.extendScratchBytes(1 << 20, 2, 3, 16)).isEqualTo(column * 2 + pairTask * 16);
        assertThat(Lde.extendScratchBytes(1 << 20, 3, 3, 16)).isEqualTo(column * 3 + pairTask * 17);
        // narrow with few tasks: coefficients + one buffer + one table
        assertThat(Lde.extendScratchBytes(1 << 20, 2, 1, 16)).isEqualTo(column * 4);
        assertThat(Lde.interpolateScratchBytes(1 << 10, 1, 4)).isEqualTo(8L * 1024 * 2);
        assertThat(Lde.interpolateScratchBytes(1 << 10, 8, 4)).isEqualTo(8L * 1024 * 6);
    }

    @Test
    void opensOneSpanOnTheCallingThread() {
        SpanRecorder recorder = new SpanRecorder();
        Spans.start(recorder);
        try (Matrix trace = randomMatrix(new SplittableRandom(8), 16, 2);
                Matrix lde = matrix("lde", 64, 2)) {
            Lde.extend(trace, 2, SHIFT, lde, THREE);
        } finally {
            Spans.stop(recorder);
        }
        List<SpanRecord> lde =
                recorder.records().stream().filter(r -> r.label().equals("lde")).toList();
        assertThat(lde).hasSize(1);
        assertThat(lde.getFirst().threadId()).isEqualTo(Thread.currentThread().threadId());
        // compared as numbers: the recorder may widen int fields to long
        var fields = lde.getFirst().fields();
        assertThat(((Number) fields.get("rows")).longValue()).isEqualTo(16);
        assertThat(((Number) fields.get("columns")).longValue()).isEqualTo(2);
        assertThat(((Number) fields.get("blowup")).longValue()).isEqualTo(4);
    }

    @Test
    void rejectsMismatchedShapes() {
        try (Matrix trace = matrix("t", 16, 2);
                Matrix wrongRows = matrix("o", 32, 2);
                Matrix wrongCols = matrix("o", 64, 3);
                Matrix notPow2 = matrix("n", 12, 2)) {
            assertThatThrownBy(() -> Lde.extend(trace, 2, SHIFT, wrongRows, ONE))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("should be 64x2");
            assertThatThrownBy(() -> Lde.extend(trace, 2, SHIFT, wrongCols, ONE))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> Lde.extend(notPow2, 1, SHIFT, wrongRows, ONE))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("power of two");
            assertThatThrownBy(() -> Lde.extend(trace, 1, 0, wrongRows, ONE))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("shift");
        }
    }
}
