package dev.basalt.optimizer.plan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Slot numbers of a plan's variables: a row has one id per slot. Not thread-safe while the compiler
 * fills it in its one thread; read-only once its plan is compiled, so the evaluations of a kept plan
 * may read it concurrently.
 */
public final class VarTable {
    private final Map<String, Integer> slots = new LinkedHashMap<>();
    private final List<String> names = new ArrayList<>();

    public int slot(String name) {
        return slots.computeIfAbsent(name, n -> {
            names.add(n);
            return names.size() - 1;
        });
    }

    /** The slot of a variable, or -1 if the plan does not know it. */
    public int find(String name) {
        Integer s = slots.get(name);
        return s == null ? -1 : s;
    }

    public String name(int slot) {
        return names.get(slot);
    }

    public int size() {
        return names.size();
    }

    public List<String> names() {
        return Collections.unmodifiableList(names);
    }
}
