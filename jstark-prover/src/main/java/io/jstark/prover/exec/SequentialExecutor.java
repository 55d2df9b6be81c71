package io.jstark.prover.exec;

import io.jstark.instrument.Span;
import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.Spans;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Runs the tasks of a pass one by one, in index order, on the calling thread. */
public final class SequentialExecutor implements TableExecutor {
    /** The one instance: the executor holds no state. */
    public static final SequentialExecutor INSTANCE = new SequentialExecutor();

    private SequentialExecutor() {}

    @Override
    public <R> List<R> runAll(String phase, List<? extends TableTask<R>> tasks) {
        List<? extends TableTask<R>> ordered = new ArrayList<>(tasks);
        ordered.sort((a, b) -> Integer.compare(a.index(), b.index()));
        Object[] results = new Object[ordered.size()];
        for (int i = 0; i < ordered.size(); i++) {
            TableTask<R> task = ordered.get(i);
            try (Span _ = Spans.open(
                    SpanLabels.tableLabel(phase), SpanLabels.TABLE_FIELD, task.table(), "index", task.index())) {
                results[i] = task.run(TaskControl.NONE);
            } catch (TableProvingException e) {
                throw e;
            } catch (Exception e) {
                throw new TableProvingException(phase, task.index(), task.table(), e);
            }
        }
        @SuppressWarnings("unchecked")
        List<R> list = (List<R>) Arrays.asList(results);
        return list;
    }
}
