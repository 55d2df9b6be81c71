package io.jstark.storage.memory;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.jstark.instrument.ByteSize;
import io.jstark.instrument.ResidentMemory;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;

/**
 * What the JVM itself adds to the prover's buffers in the memory the kernel counts (resident anonymous
 * pages, RssAnon, and file-backed pages, RssFile), so that a plan can keep the whole process within its
 * budget, not only the prover's buffers.
 *
 * <p>The heap: the kernel holds what the heap has touched, up to -Xmx. With a fixed heap (-Xms = -Xmx,
 * as {@code scripts/jstark} sets from a budget, with -XX:+AlwaysPreTouch) that is exactly -Xmx from the
 * start, so the plan counts -Xmx; otherwise the heap the collector lets grow is not known in advance and
 * the plan counts the predicted live heap (an underestimate when garbage accumulates: say so).
 *
 * @param maxHeapBytes -Xmx ({@link Runtime#maxMemory()}); 0 when not counted
 * @param fixedHeap whether the heap cannot grow or shrink (-Xms = -Xmx)
 * @param preTouched whether its pages were touched at start-up (-XX:+AlwaysPreTouch)
 * @param nativeBytes the JVM's anonymous memory outside the heap (code, metaspace, threads, collector,
 *     allocator overhead), with room for what proving adds ({@link #PROVING_GROWTH_BYTES})
 * @param fileBytes the JVM's own file-backed pages (the JDK's libraries, the class archive, the jar)
 * @param heapRule how the launcher sized the fixed heap from the budget ({@link HeapRule#fromSystemProperties}),
 *     or null where it did not: then another budget leaves the heap as it is
 */
public record JvmFootprint(
        long maxHeapBytes, boolean fixedHeap, boolean preTouched, long nativeBytes, long fileBytes, HeapRule heapRule) {
    /** Nothing counted beyond the prover's buffers and its predicted heap: the model alone (tests, what-ifs). */
    public static final JvmFootprint NONE = new JvmFootprint(0, false, false, 0, 0);

    /**
     * What proving adds to the JVM's native memory after a plan is made: compiled code and the compilers'
     * arenas, the worker and driver threads' stacks, the allocator's arenas. Set from the residency table
     * ({@code scripts/residency.sh}, docs/memory.md): with it the predicted peak RssAnon was 2-6% above the
     * measured one on fib 2^18..2^22 and the mix 2^16..2^18 at k = 1, 2, 4 (measured / predicted 0.94-0.98).
     */
    public static final long PROVING_GROWTH_BYTES = 40L << 20;

    /**
     * Checks the figures.
     *
     * @throws IllegalArgumentException for a negative byte count
     */
    public JvmFootprint {
        if (maxHeapBytes < 0 || nativeBytes < 0 || fileBytes < 0) {
            throw new IllegalArgumentException(
                    "negative JVM footprint: heap " + maxHeapBytes + ", native " + nativeBytes + ", file " + fileBytes);
        }
    }

    /**
     * A footprint whose heap no launcher rule sizes.
     *
     * @param maxHeapBytes -Xmx; 0 when not counted
     * @param fixedHeap whether -Xms = -Xmx
     * @param preTouched whether the heap was touched at start-up
     * @param nativeBytes the JVM's anonymous memory outside the heap
     * @param fileBytes the JVM's own file-backed pages
     */
    public JvmFootprint(long maxHeapBytes, boolean fixedHeap, boolean preTouched, long nativeBytes, long fileBytes) {
        this(maxHeapBytes, fixedHeap, preTouched, nativeBytes, fileBytes, null);
    }

    /**
     * This JVM as the launcher would start it for another budget: the heap its rule gives that budget (for a fixed
     * heap sized by a rule), everything else as measured.
     *
     * @param budgetBytes the other memory budget, in bytes
     * @return the footprint at that budget ({@code this} where no rule sizes the heap)
     */
    public JvmFootprint atBudget(long budgetBytes) {
        if (heapRule == null || !fixedHeap) {
            return this;
        }
        long heap = -Math.floorDiv(-heapRule.heapBytes(budgetBytes), HEAP_ALIGNMENT_BYTES) * HEAP_ALIGNMENT_BYTES;
        long collector = (heap - maxHeapBytes) / COLLECTOR_BYTES_PER_HEAP_BYTE;
        return new JvmFootprint(heap, true, preTouched, Math.max(0, nativeBytes + collector), fileBytes, heapRule);
    }

    /**
     * The heap live objects can use: the parallel collector keeps one survivor space, 1/24 of a fixed heap, out of
     * it (measured: {@link Runtime#maxMemory()} is 0.958 of -Xms = -Xmx from 64 MiB to 6 GiB, e.g. 586.5 of 612 MiB).
     *
     * @return bytes, what a fixed heap holds of the predicted heap; -Xmx itself for a heap that is not fixed
     */
    public long usableHeapBytes() {
        return fixedHeap ? maxHeapBytes - maxHeapBytes / SURVIVOR_SHARE : maxHeapBytes;
    }

    /**
     * The fixed heap (-Xms = -Xmx) whose {@link #usableHeapBytes} holds {@code liveBytes}.
     *
     * @param liveBytes the heap live objects need, in bytes
     * @return the heap to give, in bytes
     */
    public static long fixedHeapHolding(long liveBytes) {
        return Math.ceilDiv(liveBytes * SURVIVOR_SHARE, SURVIVOR_SHARE - 1);
    }

    /** One survivor space is this fraction (1/24) of a fixed heap: kept out of what live objects can use. */
    private static final long SURVIVOR_SHARE = 24;

    /**
     * The heap sizes the parallel collector (the one {@code scripts/jstark} chooses) makes: -Xmx rounded up to a
     * multiple of 2 MiB (measured: -Xmx193m gives a 194 MiB heap, -Xmx65m 66 MiB).
     */
    static final long HEAP_ALIGNMENT_BYTES = 2L << 20;

    /**
     * The native memory {@link #measure} finds grows with the fixed heap, one byte per this many bytes of heap:
     * measured by {@code scripts/jstark plan --example fib --rows 2^16} at budgets 64M, 1G, 2G and 4G (heaps 64,
     * 384, 768 and 1,536 MiB): 81.0, 95.1, 111.8 and 145.4 MiB, 4.35-4.38% of the heap between each pair. The
     * parallel collector's own structures are 1.9% of it (-XX:NativeMemoryTracking "GC": 7.2 MiB at 64 MiB, 25.4 MiB
     * at 1 GiB); the rest is not attributed.
     */
    static final long COLLECTOR_BYTES_PER_HEAP_BYTE = 23;

    /**
     * The same JVM with other native memory: a what-if for room above a measurement that varies from run to run.
     *
     * @param bytes the native memory, in bytes
     * @return the footprint
     */
    public JvmFootprint withNativeBytes(long bytes) {
        return new JvmFootprint(maxHeapBytes, fixedHeap, preTouched, bytes, fileBytes, heapRule);
    }

    /**
     * This JVM now: its heap limits and flags, and its native and file-backed memory from a resident-memory
     * reading (where there is none, the non-heap pools' committed bytes stand in for the native memory).
     *
     * @param offHeapLiveBytes off-heap buffers allocated now (not the JVM's own), in bytes: subtracted from the
     *     resident anonymous memory so that they are not counted as the JVM's
     * @return the footprint, {@link #PROVING_GROWTH_BYTES} included in its native bytes
     */
    public static JvmFootprint measure(long offHeapLiveBytes) {
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        long max = Runtime.getRuntime().maxMemory();
        boolean fixed = heap.getInit() == heap.getMax() || heap.getInit() >= max;
        boolean preTouched = Boolean.parseBoolean(option("AlwaysPreTouch"));
        ResidentMemory.Reading now = ResidentMemory.read();
        long nativeNow;
        long nonHeap =
                ManagementFactory.getMemoryMXBean().getNonHeapMemoryUsage().getCommitted();
        if (now.available()) {
            // a pre-touched heap is resident in full; otherwise at most its committed part is, so the rest is at least
            // this
            nativeNow = Math.max(nonHeap, now.anonymous() - heap.getCommitted() - offHeapLiveBytes);
        } else {
            nativeNow = nonHeap;
        }
        // a fixed heap is committed in full: -Xmx itself, survivor spaces included (maxMemory() leaves one out)
        long heapBytes = max == Long.MAX_VALUE ? 0 : fixed ? Math.max(max, parseOr(option("MaxHeapSize"), max)) : max;
        return new JvmFootprint(
                heapBytes,
                fixed,
                preTouched,
                nativeNow + PROVING_GROWTH_BYTES,
                Math.max(0, now.file()),
                fixed ? HeapRule.fromSystemProperties().orElse(null) : null);
    }

    /** A HotSpot flag's value, "" where there is none. */
    private static String option(String name) {
        try {
            HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            return hotspot == null ? "" : hotspot.getVMOption(name).getValue();
        } catch (RuntimeException e) {
            return "";
        }
    }

    private static long parseOr(String value, long otherwise) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }

    /**
     * Whether the JVM is counted at all (not {@link #NONE}).
     *
     * @return true when a heap or native size was counted
     */
    public boolean counted() {
        return maxHeapBytes > 0 || nativeBytes > 0;
    }

    /**
     * The heap the kernel holds at most while proving: -Xmx for a fixed heap, else the predicted live heap.
     *
     * @param predictedHeapBytes the live heap the memory model predicts, in bytes
     * @return bytes: the larger of -Xmx and the prediction for a fixed heap, else the prediction
     */
    public long residentHeap(long predictedHeapBytes) {
        return fixedHeap && maxHeapBytes > 0 ? Math.max(maxHeapBytes, predictedHeapBytes) : predictedHeapBytes;
    }

    /**
     * The JVM as text: "heap -Xmx 256.0 MiB fixed (-Xms = -Xmx), pre-touched; JVM native 120.0 MiB; JVM files 30.0 MiB".
     *
     * @return one line, or "JVM not counted"
     */
    public String describe() {
        if (!counted()) {
            return "JVM not counted";
        }
        return "heap -Xmx " + ByteSize.format(maxHeapBytes)
                + (fixedHeap ? " fixed (-Xms = -Xmx)" : " (grows as the collector decides)")
                + (preTouched ? ", pre-touched" : "")
                + (heapRule != null ? " (the launcher's " + heapRule.describe() + ")" : "")
                + "; JVM native " + ByteSize.format(nativeBytes) + "; JVM files " + ByteSize.format(fileBytes);
    }
}
