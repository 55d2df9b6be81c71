package io.jstark.cluster;

import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/** The table sources a process knows, by name: the examples, then every {@link TableSource} service it can load. */
final class TableSources {
    private final Map<String, TableSource> byName;

    private TableSources(Map<String, TableSource> byName) {
        this.byName = byName;
    }

    /**
     * The examples and the sources {@link ServiceLoader} finds for this module (its class path and module path).
     *
     * @throws ClusterException when two sources share a name
     */
    static TableSources discovered() {
        List<TableSource> all = new ArrayList<>();
        for (Example e : Examples.all()) {
            all.add(new ExampleSource(e));
        }
        for (TableSource s : ServiceLoader.load(TableSource.class, TableSources.class.getClassLoader())) {
            all.add(s);
        }
        return of(all);
    }

    /**
     * These sources.
     *
     * @throws ClusterException when two share a name
     */
    static TableSources of(List<TableSource> sources) {
        Map<String, TableSource> byName = new LinkedHashMap<>();
        for (TableSource s : sources) {
            TableSource earlier = byName.putIfAbsent(s.name(), s);
            if (earlier != null) {
                throw new ClusterException("two table sources are named '" + s.name() + "': "
                        + earlier.getClass().getName() + " and " + s.getClass().getName());
            }
        }
        return new TableSources(byName);
    }

    /** {@return the sources' names, in the order they were found} */
    List<String> names() {
        return List.copyOf(byName.keySet());
    }

    /**
     * The source of this name.
     *
     * @throws ClusterException listing the names this process knows
     */
    TableSource byName(String name) {
        TableSource s = byName.get(name);
        if (s == null) {
            throw new ClusterException("no table source '" + name + "' on this worker (it knows " + names() + ")");
        }
        return s;
    }
}
