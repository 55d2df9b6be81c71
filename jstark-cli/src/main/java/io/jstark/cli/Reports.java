package io.jstark.cli;

import io.jstark.air.trace.TableTrace;
import io.jstark.examples.Workload;
import io.jstark.instrument.SpanRecorder;
import io.jstark.instrument.report.TimingReport;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds the reports the commands print. */
final class Reports {
    private Reports() {}

    static String timing(SpanRecorder recorder, Workload workload) {
        Map<String, TimingReport.TableInfo> tables = new LinkedHashMap<>();
        for (TableTrace t : workload.tables()) {
            tables.put(t.name(), new TimingReport.TableInfo(t.air().name(), t.height()));
        }
        return TimingReport.of(recorder.records(), "prove", tables, List.of()).render();
    }
}
