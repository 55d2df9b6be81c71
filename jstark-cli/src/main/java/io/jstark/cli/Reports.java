package io.jstark.cli;

import io.jstark.air.trace.TableTrace;
import io.jstark.examples.Workload;
import io.jstark.instrument.SpanRecord;
import io.jstark.instrument.report.TimingReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds the reports the commands print. */
final class Reports {
    /** The memory model whose predictions the timing report prints next to the measured peaks. */
    static final PeakPredictor PEAK_PREDICTOR = PeakPredictor.NONE;

    private Reports() {}

    static Map<String, TimingReport.TableInfo> tableInfo(Workload workload) {
        Map<String, TimingReport.TableInfo> tables = new LinkedHashMap<>();
        for (TableTrace t : workload.tables()) {
            tables.put(t.name(), new TimingReport.TableInfo(t.air().name(), t.height()));
        }
        return tables;
    }

    static TimingReport timing(List<SpanRecord> spans, Map<String, TimingReport.TableInfo> tables, PeakMemory.Measured measured,
            PeakPredictor.Prediction predicted) {
        List<TimingReport.MemoryPeak> peaks = new ArrayList<>();
        if (measured != null) {
            peaks.add(new TimingReport.MemoryPeak("off-heap", predicted.offHeapBytes(), measured.offHeapBytes(), PeakMemory.OFF_HEAP_HOW));
            peaks.add(new TimingReport.MemoryPeak("heap", predicted.heapBytes(), measured.heapBytes(), PeakMemory.HEAP_HOW));
        }
        return TimingReport.builder(spans).root("prove").tables(tables).memoryPeaks(peaks).memoryLines(predicted.notes()).build();
    }
}
