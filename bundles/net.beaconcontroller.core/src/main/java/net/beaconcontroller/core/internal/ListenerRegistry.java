package net.beaconcontroller.core.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.config.SettingException;
import net.beaconcontroller.core.BeaconListener;
import net.beaconcontroller.core.IOFInitializerListener;
import net.beaconcontroller.core.IOFMessageListener;
import net.beaconcontroller.core.IOFSwitchListener;
import net.beaconcontroller.core.ListenerStats;
import net.beaconcontroller.openflow.OFType;

/**
 * The listeners the controller calls, in order: message listeners per type (the pipelines), switch listeners and
 * initializers, whether registered as whiteboard services (with ordering properties) or by Beacon 1.0's methods.
 * Changes take the registry's lock and publish new arrays; I/O threads read those without locks.
 */
final class ListenerRegistry {
    private static final Logger log = LoggerFactory.getLogger(ListenerRegistry.class);
    private static final String PROPERTY_TYPES = BeaconListener.PREFIX_ + "types";
    private static final String PROPERTY_BEFORE = BeaconListener.PREFIX_ + "before";
    private static final String PROPERTY_AFTER = BeaconListener.PREFIX_ + "after";

    /** A listener in a pipeline: what it receives and whom it must precede or follow. */
    record Registration<L>(L listener, Set<OFType> types, Set<String> before, Set<String> after, long seq) { }

    private final AtomicLong arrivals = new AtomicLong();
    // Guarded by this.
    private final List<Registration<IOFMessageListener>> messageListeners = new ArrayList<>();
    private final List<Registration<IOFSwitchListener>> switchListenerList = new ArrayList<>();
    private final List<Registration<IOFInitializerListener>> initializerList = new ArrayList<>();
    /** Each listener's meter per message type, kept while it stays registered. */
    private final Map<IOFMessageListener, EnumMap<OFType, ListenerMeter>> meters = new IdentityHashMap<>();
    /** The I/O thread count the meters have cells for; 0 until configured (nothing is built before). */
    private int meterThreads;
    private Map<OFType, List<String>> callbackOrdering = Map.of();
    /** A copy of the switch listeners' registrations for I/O threads, which must not wait for the lock. */
    private volatile List<Registration<IOFSwitchListener>> switchRegistrations = List.of();
    /** Per type, the pipeline in its order; replaced, never changed, so dispatch reads it without locks. */
    private volatile Pipeline[] pipelines = emptyPipelines();
    private volatile IOFSwitchListener[] switchListeners = new IOFSwitchListener[0];
    private volatile IOFInitializerListener[] initializers = new IOFInitializerListener[0];

    private static Pipeline[] emptyPipelines() {
        var empty = new Pipeline[OFType.values().length];
        Arrays.fill(empty, Pipeline.EMPTY);
        return empty;
    }

    /**
     * The settings that shape the pipelines: the I/O thread count (meters have a cell per thread) and the parsed
     * {@code controller.callbackOrdering}.
     */
    synchronized void configure(int threadCount, Map<OFType, List<String>> ordering) {
        callbackOrdering = ordering;
        if (meterThreads != threadCount) {
            meters.clear(); // their cells are per I/O thread: counting starts again with the new threads
            meterThreads = threadCount;
        }
        rebuild();
    }

    /** {@code TYPE=name,name} elements, as the configuration bundle hands over {@code callbackOrdering[TYPE]} keys. */
    static Map<OFType, List<String>> parseOrdering(String[] elements) {
        var result = new EnumMap<OFType, List<String>>(OFType.class);
        for (String element : elements) {
            int eq = element.indexOf('=');
            String type = eq < 0 ? element : element.substring(0, eq).trim();
            String names = eq < 0 ? "" : element.substring(eq + 1);
            String key = "controller.callbackOrdering[" + type + "]";
            var t = Arrays.stream(OFType.values()).filter(v -> v.name().equals(type)).findFirst()
                    .orElseThrow(() -> new SettingException(key, names,
                            "expected an OpenFlow message type such as PACKET_IN between the brackets"));
            var list = Arrays.stream(names.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
            if (!list.stream().allMatch(ListenerRegistry::isName)) {
                throw new SettingException(key, names, "expected a comma-separated list of listener names");
            }
            result.put(t, list);
        }
        return result;
    }

    private static boolean isName(String s) {
        return s.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '.' || c == '_' || c == '-');
    }

    // ------------------------------------------------------------------------------------------ read by dispatch

    Pipeline pipeline(OFType type) {
        return pipelines[type.ordinal()];
    }

    IOFSwitchListener[] switchListeners() {
        return switchListeners;
    }

    IOFInitializerListener[] initializers() {
        return initializers;
    }

    /** Whether {@code registration} still stands (not removed, maybe to be added again as another). */
    boolean registered(Registration<IOFSwitchListener> registration) {
        return switchRegistrations.stream().anyMatch(r -> r == registration);
    }

    List<String> names(OFType type) {
        return Arrays.stream(pipeline(type).listeners()).map(IOFMessageListener::getName).toList();
    }

    List<ListenerStats> stats() {
        var stats = new ArrayList<ListenerStats>();
        var current = pipelines;
        for (var type : OFType.values()) {
            var p = current[type.ordinal()];
            for (int i = 0; i < p.listeners().length; i++) {
                var m = p.meters()[i];
                stats.add(new ListenerStats(type, p.listeners()[i].getName(), m.sum(ListenerMeter.CALLS),
                        m.sum(ListenerMeter.ERRORS), m.sum(ListenerMeter.TIMED_CALLS),
                        m.sum(ListenerMeter.TIMED_NANOS)));
            }
        }
        return stats;
    }

    // ------------------------------------------------------------------------------------------------- changes

    /** A message listener service, with its service properties (see {@link BeaconListener}). */
    void addMessageService(IOFMessageListener listener, Map<String, Object> properties) {
        var types = types(strings(properties.get(PROPERTY_TYPES)), listener.getName());
        if (types.isEmpty()) {
            log.warn("message listener {} names no message types in its service property {}: it receives nothing",
                    listener.getName(), PROPERTY_TYPES);
        }
        add(messageListeners, new Registration<>(listener, types, strings(properties.get(PROPERTY_BEFORE)),
                strings(properties.get(PROPERTY_AFTER)), arrivals.incrementAndGet()));
    }

    /** @return whether it was registered */
    boolean removeMessage(IOFMessageListener listener) {
        return remove(messageListeners, r -> r.listener() == listener);
    }

    void addMessage(OFType type, IOFMessageListener listener) {
        add(messageListeners, new Registration<>(listener, Set.of(type), Set.of(), Set.of(), arrivals.incrementAndGet()));
    }

    boolean removeMessage(OFType type, IOFMessageListener listener) {
        return remove(messageListeners, r -> r.listener() == listener && r.types().contains(type));
    }

    /** @return the registration, for the switches connected already to be told of it */
    Registration<IOFSwitchListener> addSwitch(IOFSwitchListener listener, Map<String, Object> properties) {
        var registration = new Registration<>(listener, Set.<OFType>of(), strings(properties.get(PROPERTY_BEFORE)),
                strings(properties.get(PROPERTY_AFTER)), arrivals.incrementAndGet());
        add(switchListenerList, registration);
        return registration;
    }

    boolean removeSwitch(IOFSwitchListener listener) {
        return remove(switchListenerList, r -> r.listener() == listener);
    }

    void addInitializer(IOFInitializerListener listener, Map<String, Object> properties) {
        add(initializerList, new Registration<>(listener, Set.of(), strings(properties.get(PROPERTY_BEFORE)),
                strings(properties.get(PROPERTY_AFTER)), arrivals.incrementAndGet()));
    }

    boolean removeInitializer(IOFInitializerListener listener) {
        return remove(initializerList, r -> r.listener() == listener);
    }

    private static Set<OFType> types(Set<String> names, String listener) {
        var result = EnumSet.noneOf(OFType.class);
        for (String name : names) {
            try {
                result.add(OFType.valueOf(name));
            } catch (IllegalArgumentException e) {
                log.warn("message listener {}: '{}' in {} is not an OpenFlow message type", listener, name,
                        PROPERTY_TYPES);
            }
        }
        return result;
    }

    /** A service property that may be one string, an array or a collection of them. */
    private static Set<String> strings(Object value) {
        if (value == null) {
            return Set.of();
        } else if (value instanceof String[] array) {
            return Set.of(Arrays.stream(array).distinct().toArray(String[]::new));
        } else if (value instanceof Collection<?> c) {
            return Set.copyOf(c.stream().map(Object::toString).toList());
        }
        return Set.of(value.toString());
    }

    private synchronized <L> void add(List<Registration<L>> list, Registration<L> registration) {
        list.add(registration);
        switchRegistrations = List.copyOf(switchListenerList);
        rebuild();
    }

    private synchronized <L> boolean remove(List<Registration<L>> list, Predicate<Registration<L>> which) {
        if (!list.removeIf(which)) {
            return false;
        }
        switchRegistrations = List.copyOf(switchListenerList);
        rebuild();
        return true;
    }

    private void rebuild() {
        if (meterThreads == 0) {
            return; // not configured yet: configure builds them
        }
        meters.keySet().retainAll(messageListeners.stream().map(Registration::listener).toList());
        var next = new Pipeline[OFType.values().length];
        for (var type : OFType.values()) {
            var entries = messageListeners.stream().filter(r -> r.types().contains(type))
                    .map(r -> entry(r, r.listener().getName())).toList();
            var ordered = PipelineOrder.order(entries, callbackOrdering.getOrDefault(type, List.of()),
                    w -> log.warn("{} pipeline: {}", type, w)).toArray(IOFMessageListener[]::new);
            var typeMeters = new ListenerMeter[ordered.length];
            for (int i = 0; i < ordered.length; i++) {
                typeMeters[i] = meters.computeIfAbsent(ordered[i], l -> new EnumMap<>(OFType.class))
                        .computeIfAbsent(type, t -> new ListenerMeter(meterThreads));
            }
            next[type.ordinal()] = new Pipeline(ordered, typeMeters);
        }
        pipelines = next;
        switchListeners = PipelineOrder.order(switchListenerList.stream().map(r -> entry(r, r.listener().getName()))
                .toList(), List.of(), w -> log.warn("switch listeners: {}", w)).toArray(IOFSwitchListener[]::new);
        initializers = PipelineOrder.order(initializerList.stream().map(r -> entry(r, r.listener().getName()))
                .toList(), List.of(), w -> log.warn("initializers: {}", w)).toArray(IOFInitializerListener[]::new);
    }

    private static <L> PipelineOrder.Entry<L> entry(Registration<L> r, String name) {
        return new PipelineOrder.Entry<>(r.listener(), Objects.requireNonNullElse(name, "?"), r.before(), r.after(),
                r.seq());
    }
}
