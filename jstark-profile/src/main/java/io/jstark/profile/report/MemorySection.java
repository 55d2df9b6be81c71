package io.jstark.profile.report;

import static io.jstark.profile.report.ReportCells.mib;

import io.jstark.profile.analysis.TextTable;
import io.jstark.profile.report.TimingReport.MemoryPeak;
import java.util.List;
import java.util.Locale;

/** The timing report's memory section: predicted and measured peaks side by side, then the caller's own lines. */
final class MemorySection {
    private MemorySection() {}

    /** The section with its heading; empty when there are neither peaks nor lines. */
    static String render(List<MemoryPeak> memoryPeaks, List<String> memoryLines) {
        if (memoryPeaks.isEmpty() && memoryLines.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder("\nPeak memory\n");
        if (!memoryPeaks.isEmpty()) {
            TextTable t = new TextTable(
                    TextTable.Column.left("memory"),
                    TextTable.Column.right("predicted MiB"),
                    TextTable.Column.right("measured MiB"),
                    TextTable.Column.right("measured / predicted"),
                    TextTable.Column.left("measured how"));
            boolean anyPrediction = false;
            for (MemoryPeak p : memoryPeaks) {
                anyPrediction |= p.predictedBytes() >= 0;
                String ratio = p.predictedBytes() > 0 && p.measuredBytes() >= 0
                        ? String.format(Locale.ROOT, "%.2f", (double) p.measuredBytes() / p.predictedBytes())
                        : "-";
                t.row(p.what(), mib(p.predictedBytes()), mib(p.measuredBytes()), ratio, p.how() == null ? "" : p.how());
            }
            out.append(t.render());
            if (!anyPrediction) {
                out.append("(no memory model is connected: predicted peaks are not available)\n");
            }
        }
        for (String line : memoryLines) {
            out.append(line).append('\n');
        }
        return out.toString();
    }
}
