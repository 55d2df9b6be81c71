package io.jstark.storage.memory;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.GcInfo;
import io.jstark.instrument.ByteSize;
import io.jstark.instrument.ResidentMemory;
import io.jstark.instrument.SpanLabels;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.prover.ProgressListener;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Measures a proof's memory per phase, to print next to the {@link MemoryPrediction}:
 * <ul>
 *   <li>off-heap RAM: the peak of the RAM allocator's exact live-byte counter (every matrix, tree and
 *       trace allocated from it, whoever allocated it);</li>
 *   <li>spill: the same counter of the spill allocator (bytes mapped from spill files), when there is one;</li>
 *   <li>heap: the sum of the heap memory pools' peak usage ({@link MemoryPoolMXBean#getPeakUsage()}).
 *       This counts garbage not yet collected, so it is at least the live heap and depends on the
 *       collector and the heap size; the model predicts live arrays only;</li>
 *   <li>resident memory as the kernel counts it ({@link ResidentMemory}): the peak of anonymous pages
 *       (RssAnon: heap, off-heap, the JVM's own; what a memory cgroup limits) and of file-backed pages
 *       (RssFile: mapped spill files among them; reclaimable), sampled every
 *       {@value #RESIDENT_PERIOD_MILLIS} ms and at every boundary; -1 where not available.</li>
 * </ul>
 * Each peak is taken between two phase boundaries, then reset. Phases end at the prover's pass
 * boundaries when the meter's {@link #listener} is the prover's progress listener, or by
 * {@link #endPhase}. Not thread-safe: call {@link #endPhase} and {@link #finish} from one thread (the
 * listener's pass events come from the thread that calls the prover).
 *
 * <p>Use:
 * <pre>
 *   MemoryMeter meter = MemoryMeter.start(RamAllocator.shared(), storage.spillAllocator());
 *   prover = new StarkProver(key, options, settings.withProgress(meter.listener(console)));
 *   Proof proof = prover.prove(traces);
 *   List&lt;MemoryMeter.Phase&gt; measured = meter.finish();
 *   report.addAll(MemoryMeter.compare(prediction, measured));
 * </pre>
 */
public final class MemoryMeter {
    /**
     * Measured peaks of one phase, in bytes.
     *
     * @param phase the phase's span label ({@code prepass}, {@code main_commit}, ...), or {@code peak} for
     *     {@link MemoryMeter#peak}
     * @param ramOffHeap peak of the RAM allocator's live bytes
     * @param heap peak heap pool usage, garbage included
     * @param heapAfterGc the most heap in use right after a collection that ended in this phase (what was
     *     live then, plus old garbage a young collection does not reach); -1 when no collection ran
     * @param spill peak of the spill allocator's live bytes
     * @param residentAnonymous peak RssAnon of the process, -1 where not available
     * @param residentFile peak RssFile of the process, -1 where not available
     */
    public record Phase(
            String phase,
            long ramOffHeap,
            long heap,
            long heapAfterGc,
            long spill,
            long residentAnonymous,
            long residentFile) {}

    /** How often resident memory is sampled between boundaries. */
    public static final long RESIDENT_PERIOD_MILLIS = 10;

    private final BufferAllocator ram;
    private final BufferAllocator spill;
    private final List<MemoryPoolMXBean> heapPools;
    private final Set<String> heapPoolNames;
    private final List<Phase> phases = new ArrayList<>();
    /** The phase the listener's last pass start opened (null before any). */
    private String open;

    private final AtomicLong heapAfterGc = new AtomicLong(-1);
    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private final NotificationListener gcListener = this::onNotification;
    private final ResidentMemory.PeakSampler resident;
    private volatile boolean finished;

    private MemoryMeter(BufferAllocator ram, BufferAllocator spill) {
        this.ram = ram;
        this.spill = spill;
        this.heapPools = new ArrayList<>();
        this.heapPoolNames = new HashSet<>();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.isValid()) {
                heapPools.add(pool);
                heapPoolNames.add(pool.getName());
            }
        }
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(gcListener, null, null);
                emitters.add(emitter);
            }
        }
        this.resident = ResidentMemory.PeakSampler.start(RESIDENT_PERIOD_MILLIS);
        reset();
    }

    private void onNotification(Notification notification, Object handback) {
        if (!notification.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)
                || !(notification.getUserData() instanceof CompositeData data)) {
            return;
        }
        GcInfo info = GarbageCollectionNotificationInfo.from(data).getGcInfo();
        long used = 0;
        for (Map.Entry<String, MemoryUsage> e : info.getMemoryUsageAfterGc().entrySet()) {
            if (heapPoolNames.contains(e.getKey())) {
                used += e.getValue().getUsed();
            }
        }
        long after = used;
        heapAfterGc.accumulateAndGet(after, Math::max);
    }

    /**
     * Starts measuring now (the peaks are reset to what is live).
     *
     * @param ram the off-heap RAM allocator (normally {@code RamAllocator.shared()})
     * @param spill the spill allocator, or null when nothing spills
     * @return a meter whose first phase starts now
     */
    public static MemoryMeter start(BufferAllocator ram, BufferAllocator spill) {
        return new MemoryMeter(ram, spill);
    }

    /**
     * Records the peaks since the last boundary as phase {@code name} and starts the next phase.
     *
     * @param name the phase that ends now
     * @throws IllegalStateException after {@link #finish}
     */
    public void endPhase(String name) {
        if (finished) {
            throw new IllegalStateException("the memory meter has finished; phase '" + name + "' came after");
        }
        long heap = 0;
        for (MemoryPoolMXBean pool : heapPools) {
            heap += pool.getPeakUsage().getUsed();
        }
        ResidentMemory.Reading peaks = resident.takePeaks();
        phases.add(new Phase(
                name,
                ram.peakBytes(),
                heap,
                heapAfterGc.getAndSet(-1),
                spill == null ? 0 : spill.peakBytes(),
                peaks.anonymous(),
                peaks.file()));
        reset();
    }

    /**
     * Ends the last phase and returns every phase: the last pass the listener saw start ({@code deep}, with the
     * global FRI and queries after it), or {@code assemble} where no pass started. Calling it again returns the
     * same phases.
     *
     * @return every phase in the order it ended
     */
    public List<Phase> finish() {
        if (!finished) {
            endPhase(open == null ? SpanLabels.ASSEMBLE : open);
            finished = true;
            resident.close();
            for (NotificationEmitter emitter : emitters) {
                try {
                    emitter.removeNotificationListener(gcListener);
                } catch (ListenerNotFoundException e) {
                    // already gone: nothing to undo
                }
            }
        }
        return List.copyOf(phases);
    }

    /**
     * The phases ended so far.
     *
     * @return a copy, in the order they ended
     */
    public List<Phase> phases() {
        return List.copyOf(phases);
    }

    /**
     * A progress listener that ends phases at the prover's pass boundaries and passes every event on to
     * {@code delegate}: a pass's phase runs from its start to the next pass's start (so it includes the global
     * steps after it: the phase trees and, in {@code deep}, the FRI and the queries); {@code prepass} ends when
     * the first pass starts.
     *
     * @param delegate the listener that receives every event too (the console's, or {@link ProgressListener#NONE})
     * @return the listener to hand to the prover
     */
    public ProgressListener listener(ProgressListener delegate) {
        return new ProgressListener() {
            @Override
            public void passStarted(String phase, int tables) {
                endPhase(open == null ? SpanLabels.PREPASS : open);
                open = phase;
                delegate.passStarted(phase, tables);
            }

            @Override
            public void tableFinished(String phase, String table, long rows) {
                delegate.tableFinished(phase, table, rows);
            }

            @Override
            public void tableStep(String phase, String table, String step) {
                delegate.tableStep(phase, table, step);
            }

            @Override
            public void passFinished(String phase) {
                delegate.passFinished(phase);
            }
        };
    }

    /**
     * The largest of the measured phases' peaks, per kind.
     *
     * @param measured the phases, as {@link #finish} returns them
     * @return a phase named {@code peak}: per figure, the largest; the resident figures and
     *     {@code heapAfterGc} -1 when no phase had one
     */
    public static Phase peak(List<Phase> measured) {
        long ramPeak = 0;
        long heapPeak = 0;
        long afterGc = -1;
        long spillPeak = 0;
        long anonymous = -1;
        long file = -1;
        for (Phase p : measured) {
            anonymous = Math.max(anonymous, p.residentAnonymous());
            file = Math.max(file, p.residentFile());
            ramPeak = Math.max(ramPeak, p.ramOffHeap());
            heapPeak = Math.max(heapPeak, p.heap());
            afterGc = Math.max(afterGc, p.heapAfterGc());
            spillPeak = Math.max(spillPeak, p.spill());
        }
        return new Phase("peak", ramPeak, heapPeak, afterGc, spillPeak, anonymous, file);
    }

    /**
     * Predicted and measured peaks side by side, one line per phase of the prediction and one for the
     * whole proof. Off-heap RAM and spill are counted exactly; for the heap, the measured figures are the
     * most in use right after a collection in the phase (closest to live data; "-" when none ran) and the
     * pool peak (garbage included). The last column is measured / predicted for off-heap RAM + spill.
     *
     * @param predicted what the memory model predicted for the proof
     * @param measured the phases measured while proving it ({@link #finish})
     * @return a header line and the table's rows
     */
    public static List<String> compare(MemoryPrediction predicted, List<Phase> measured) {
        List<String> out = new ArrayList<>();
        boolean jvmCounted = predicted.jvm().counted();
        out.add(
                "memory, predicted / measured peak (heap measured: after-GC max / pool peak with garbage; resident: RssAnon and "
                        + "RssFile of the process, file-backed predicted as at most"
                        + (jvmCounted
                                ? ")"
                                : "; resident memory is predicted only "
                                        + "with a memory budget, which fixes the JVM's heap: without one the JVM is not counted, so '-')"));
        String row = "%-20s  %23s  %23s  %34s  %8s  %25s  %25s";
        out.add(String.format(
                Locale.ROOT,
                row,
                "phase",
                "off-heap RAM",
                "spill",
                "heap",
                "off-heap",
                "resident anon",
                "resident file"));
        for (MemoryPrediction.PhasePeak p : predicted.phases()) {
            out.add(line(
                    row,
                    p.phase(),
                    p.ramOffHeap(),
                    p.spill(),
                    p.heap(),
                    jvmCounted ? p.residentAnonymous() : -1,
                    jvmCounted ? p.residentFile() : -1,
                    find(measured, p.phase())));
        }
        out.add(line(
                row,
                "peak",
                predicted.peakOffHeapBytes(),
                predicted.peakSpillBytes(),
                predicted.peakHeapBytes(),
                jvmCounted ? predicted.peakRamBytes() : -1,
                jvmCounted ? predicted.peakResidentFileBytes() : -1,
                measured.isEmpty() ? null : peak(measured)));
        return out;
    }

    private static String line(
            String row, String phase, long ramOffHeap, long spill, long heap, long anonymous, long file, Phase m) {
        if (m == null) {
            return String.format(
                    Locale.ROOT,
                    row,
                    phase,
                    pair(ramOffHeap, "-"),
                    pair(spill, "-"),
                    pair(heap, "-"),
                    "-",
                    pair(anonymous, "-"),
                    pair(file, "-"));
        }
        long predictedOffHeap = ramOffHeap + spill;
        long measuredOffHeap = m.ramOffHeap() + m.spill();
        String ratio = predictedOffHeap == 0
                ? "-"
                : String.format(Locale.ROOT, "%.1f%%", 100.0 * measuredOffHeap / predictedOffHeap);
        String heapMeasured =
                (m.heapAfterGc() < 0 ? "-" : ByteSize.format(m.heapAfterGc())) + " / " + ByteSize.format(m.heap());
        return String.format(
                Locale.ROOT,
                row,
                phase,
                pair(ramOffHeap, ByteSize.format(m.ramOffHeap())),
                pair(spill, ByteSize.format(m.spill())),
                pair(heap, heapMeasured),
                ratio,
                pair(anonymous, resident(m.residentAnonymous())),
                pair(file, resident(m.residentFile())));
    }

    private static String resident(long bytes) {
        return bytes < 0 ? "not available" : ByteSize.format(bytes);
    }

    /** A negative prediction is one not made: "-". */
    private static String pair(long predicted, String measured) {
        return (predicted < 0 ? "-" : ByteSize.format(predicted)) + " / " + measured;
    }

    private static Phase find(List<Phase> measured, String phase) {
        for (Phase p : measured) {
            if (p.phase().equals(phase)) {
                return p;
            }
        }
        return null;
    }

    private void reset() {
        ram.resetPeak();
        if (spill != null) {
            spill.resetPeak();
        }
        for (MemoryPoolMXBean pool : heapPools) {
            pool.resetPeakUsage();
        }
    }
}
