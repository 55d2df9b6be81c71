package io.jstark.cli;

import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.Timeline;
import io.jstark.profile.report.TimingReport;
import io.jstark.prover.memory.TableDimensions;
import io.jstark.storage.memory.MemoryPrediction;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds the reports the commands print. */
final class Reports {
    private Reports() {}

    static Map<String, TimingReport.TableInfo> tableInfo(List<TableDimensions> shapes) {
        Map<String, TimingReport.TableInfo> tables = new LinkedHashMap<>();
        for (TableDimensions t : shapes) {
            tables.put(t.name(), new TimingReport.TableInfo(t.air().name(), t.rows()));
        }
        return tables;
    }

    /**
     * @param predicted the memory model's prediction, or null when none was made (a timeline read back)
     * @param memoryLines per-phase predicted vs measured lines, printed under the peaks
     */
    static TimingReport timing(
            Timeline timeline,
            Map<String, TimingReport.TableInfo> tables,
            PeakMemory.Measured measured,
            MemoryPrediction predicted,
            List<String> memoryLines) {
        List<TimingReport.MemoryPeak> peaks = new ArrayList<>();
        if (measured != null) {
            peaks.add(new TimingReport.MemoryPeak(
                    "off-heap",
                    predicted == null ? -1 : predicted.peakOffHeapBytes(),
                    measured.offHeapBytes(),
                    PeakMemory.OFF_HEAP_HOW));
            peaks.add(new TimingReport.MemoryPeak(
                    "heap (live)",
                    predicted == null ? -1 : predicted.peakHeapBytes(),
                    measured.heapLiveBytes(),
                    PeakMemory.HEAP_LIVE_HOW));
            peaks.add(new TimingReport.MemoryPeak("heap (pools)", -1, measured.heapBytes(), PeakMemory.HEAP_HOW));
            // resident memory is predicted only where the JVM is counted (a memory budget fixes its heap)
            boolean residentPredicted = predicted != null && predicted.jvm().counted();
            peaks.add(new TimingReport.MemoryPeak(
                    "resident anonymous",
                    residentPredicted ? predicted.peakRamBytes() : -1,
                    measured.residentAnonymousBytes(),
                    PeakMemory.RESIDENT_ANONYMOUS_HOW));
            peaks.add(new TimingReport.MemoryPeak(
                    "resident file-backed",
                    residentPredicted ? predicted.peakResidentFileBytes() : -1,
                    measured.residentFileBytes(),
                    PeakMemory.RESIDENT_FILE_HOW));
        }
        return TimingReport.builder(timeline)
                .root(SpanLabels.PROVE)
                .tables(tables)
                .memoryPeaks(peaks)
                .memoryLines(memoryLines)
                .build();
    }
}
