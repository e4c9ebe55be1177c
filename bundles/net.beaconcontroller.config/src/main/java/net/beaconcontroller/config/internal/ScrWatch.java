package net.beaconcontroller.config.internal;

import java.lang.reflect.Array;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.osgi.service.component.runtime.ServiceComponentRuntime;
import org.osgi.service.component.runtime.dto.ComponentConfigurationDTO;
import org.osgi.service.component.runtime.dto.ComponentDescriptionDTO;

/**
 * {@link ComponentWatch} over the Service Component Runtime's DTOs. There is no event for "configuration delivered"
 * or "activation failed", so it polls with a deadline: a component has its configuration when its properties carry
 * the expected values and it has left the states it passes through while (re)activating.
 */
final class ScrWatch implements ComponentWatch {
    private static final long POLL_MILLIS = 50;

    private final ServiceComponentRuntime scr;

    ScrWatch(ServiceComponentRuntime scr) {
        this.scr = scr;
    }

    @Override
    public Outcome await(String pid, Map<String, Object> expected, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            var outcome = check(pid, expected);
            if (outcome.result() != Result.TIMEOUT || System.nanoTime() - deadline > 0) {
                return outcome;
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    /** The outcome now; TIMEOUT meaning "not settled yet". */
    private Outcome check(String pid, Map<String, Object> expected) {
        var users = scr.getComponentDescriptionDTOs().stream()
                .filter(d -> Arrays.asList(d.configurationPid).contains(pid) && scr.isComponentEnabled(d)).toList();
        if (users.isEmpty()) {
            return new Outcome(Result.NO_COMPONENT, "", false, null);
        }
        for (var d : users) {
            var configurations = scr.getComponentConfigurationDTOs(d);
            var current = configurations.stream().filter(c -> matches(c.properties, expected)).toList();
            for (var c : current) {
                if (c.state == ComponentConfigurationDTO.FAILED_ACTIVATION) {
                    return new Outcome(Result.FAILED, d.name, d.modified != null, c.failure);
                }
            }
            if (current.isEmpty() || !current.stream().allMatch(c -> settled(d, c))) {
                return new Outcome(Result.TIMEOUT, d.name, d.modified != null, null);
            }
        }
        var first = users.get(0);
        return new Outcome(Result.APPLIED, first.name, first.modified != null, null);
    }

    private static boolean settled(ComponentDescriptionDTO d, ComponentConfigurationDTO c) {
        return switch (c.state) {
            case ComponentConfigurationDTO.ACTIVE, ComponentConfigurationDTO.FAILED_ACTIVATION,
                    ComponentConfigurationDTO.UNSATISFIED_REFERENCE -> true;
            // A delayed component rests in SATISFIED until someone uses its service.
            case ComponentConfigurationDTO.SATISFIED -> !d.immediate;
            default -> false;
        };
    }

    /** Whether a component's properties hold every expected value (arrays compared element by element as text). */
    static boolean matches(Map<String, Object> properties, Map<String, Object> expected) {
        return expected.entrySet().stream()
                .allMatch(e -> Objects.equals(text(properties.get(e.getKey())), text(e.getValue())));
    }

    private static Object text(Object value) {
        if (value != null && value.getClass().isArray()) {
            var items = new ArrayList<String>();
            for (int i = 0; i < Array.getLength(value); i++) {
                items.add(String.valueOf(Array.get(value, i)));
            }
            return items;
        }
        return value == null ? null : String.valueOf(value);
    }

    @Override
    public List<Failure> failures() {
        var result = new ArrayList<Failure>();
        for (var d : scr.getComponentDescriptionDTOs()) {
            for (var c : scr.getComponentConfigurationDTOs(d)) {
                if (c.state == ComponentConfigurationDTO.FAILED_ACTIVATION) {
                    result.add(new Failure(d.name, c.failure));
                }
            }
        }
        return result;
    }
}
