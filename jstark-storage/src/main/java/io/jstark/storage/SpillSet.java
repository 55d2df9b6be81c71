package io.jstark.storage;

import io.jstark.prover.MatrixRole;
import io.jstark.prover.memory.Placement;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;

/** Which (table, role) pairs spill: all of them (disk), none (ram), or a chosen set (auto). */
final class SpillSet implements Placement {
    private final StorageMode mode;
    private final Map<String, EnumSet<MatrixRole>> roles;

    SpillSet(StorageMode mode) {
        this(mode, new HashMap<>());
    }

    private SpillSet(StorageMode mode, Map<String, EnumSet<MatrixRole>> roles) {
        this.mode = mode;
        this.roles = roles;
    }

    @Override
    public boolean spills(String table, MatrixRole role) {
        return switch (mode) {
            case DISK -> true;
            case RAM -> false;
            case AUTO -> contains(table, role);
        };
    }

    boolean contains(String table, MatrixRole role) {
        EnumSet<MatrixRole> set = roles.get(table);
        return set != null && set.contains(role);
    }

    void add(String table, MatrixRole role) {
        roles.computeIfAbsent(table, t -> EnumSet.noneOf(MatrixRole.class)).add(role);
    }

    void remove(String table, MatrixRole role) {
        EnumSet<MatrixRole> set = roles.get(table);
        if (set != null) {
            set.remove(role);
        }
    }

    /** A copy that no longer changes. */
    SpillSet freeze() {
        Map<String, EnumSet<MatrixRole>> copy = new HashMap<>();
        roles.forEach((t, r) -> {
            if (!r.isEmpty()) {
                copy.put(t, EnumSet.copyOf(r));
            }
        });
        return new SpillSet(mode, Map.copyOf(copy));
    }
}
