package net.beaconcontroller.config.internal;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Array;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedDeque;

import org.osgi.service.component.runtime.ServiceComponentRuntime;
import org.osgi.service.component.runtime.dto.ComponentConfigurationDTO;
import org.osgi.service.component.runtime.dto.ComponentDescriptionDTO;
import org.osgi.service.log.LogEntry;
import org.osgi.service.log.LogListener;
import org.osgi.service.log.LogReaderService;

import net.beaconcontroller.config.SettingException;

/**
 * {@link ComponentWatch} over the Service Component Runtime's DTOs. There is no event for "configuration delivered"
 * or "activation failed", so it polls with a deadline: a component has its configuration when its properties carry
 * the expected values and it has left the states it passes through while (re)activating. A modified method that
 * throws leaves no trace in the DTOs (the component stays active, as the DS specification says), only in the log, so
 * the log is read for {@link SettingException}s too.
 */
final class ScrWatch implements ComponentWatch {
    private static final long POLL_MILLIS = 50;
    /** How long after a modified method could have run its failure may take to reach the (asynchronous) log. */
    private static final long LOG_GRACE_MILLIS = 500;
    private static final int LOG_KEPT = 32;

    private final ServiceComponentRuntime scr;
    private final LogReaderService logs;
    private final LogListener listener = this::logged;
    /** Recent log entries caused by a SettingException: when, and the text with the component's name. */
    private final ConcurrentLinkedDeque<Logged> settingFailures = new ConcurrentLinkedDeque<>();

    private record Logged(long time, String message, String failure) {
    }

    ScrWatch(ServiceComponentRuntime scr, LogReaderService logs) {
        this.scr = scr;
        this.logs = logs;
        logs.addLogListener(listener);
    }

    void close() {
        logs.removeLogListener(listener);
    }

    private void logged(LogEntry entry) {
        for (Throwable t = entry.getException(); t != null; t = t.getCause()) {
            // By name: the exception may come from another revision of the API bundle.
            if (t.getClass().getName().equals(SettingException.class.getName())) {
                var trace = new StringWriter();
                entry.getException().printStackTrace(new PrintWriter(trace));
                settingFailures.addLast(new Logged(entry.getTime(), String.valueOf(entry.getMessage()),
                        trace.toString()));
                while (settingFailures.size() > LOG_KEPT) {
                    settingFailures.pollFirst();
                }
                return;
            }
        }
    }

    /** A SettingException logged for {@code component} since {@code since} (epoch millis). */
    private Optional<String> loggedFailure(String component, long since) {
        return settingFailures.stream().filter(l -> l.time() >= since && l.message().contains("[" + component + "("))
                .map(Logged::failure).findFirst();
    }

    @Override
    public Outcome await(String pid, Map<String, Object> expected, Duration timeout) throws InterruptedException {
        long since = System.currentTimeMillis();
        long deadline = System.nanoTime() + timeout.toNanos();
        Long settledAt = null;
        while (true) {
            var outcome = check(pid, expected);
            if (outcome.result() == Result.APPLIED || outcome.result() == Result.TIMEOUT) {
                var failure = loggedFailure(outcome.component(), since);
                if (failure.isPresent()) {
                    return new Outcome(Result.FAILED, outcome.component(), outcome.modifiable(), failure.get());
                }
            }
            if (outcome.result() == Result.APPLIED && outcome.modifiable()) {
                settledAt = settledAt == null ? System.nanoTime() : settledAt;
                if (System.nanoTime() - settledAt < LOG_GRACE_MILLIS * 1_000_000) {
                    outcome = new Outcome(Result.TIMEOUT, outcome.component(), true, null);
                }
            }
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
                    result.add(new Failure(d.name, d.bundle.id, c.failure));
                }
            }
        }
        return result;
    }
}
