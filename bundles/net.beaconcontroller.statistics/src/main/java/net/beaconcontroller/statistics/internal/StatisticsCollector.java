package net.beaconcontroller.statistics.internal;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.function.LongSupplier;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.core.IBeaconProvider;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.IOFSwitchListener;
import net.beaconcontroller.core.IScheduler;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.OFStatsReply;
import net.beaconcontroller.openflow.OFStatsRequest;
import net.beaconcontroller.openflow.statistics.OFPortStatsReply;
import net.beaconcontroller.openflow.statistics.OFPortStatsRequest;
import net.beaconcontroller.statistics.IStatisticsService;
import net.beaconcontroller.statistics.PortBandwidth;

/**
 * Polls every switch's port statistics each period and keeps each port's rate between the last two replies. The
 * scheduler thread only sends the requests; replies are handled on the switches' I/O threads, each switch's on its
 * own, so the per-port state needs no lock beyond the concurrent map.
 */
@Component(configurationPid = StatisticsCollector.NAME, configurationPolicy = ConfigurationPolicy.REQUIRE,
        immediate = true, service = {IStatisticsService.class, IOFSwitchListener.class})
@Designate(ocd = StatisticsCollector.Config.class)
public final class StatisticsCollector implements IStatisticsService, IOFSwitchListener {
    static final String NAME = "statistics";
    private static final Logger log = LoggerFactory.getLogger(StatisticsCollector.class);

    @ObjectClassDefinition(name = "Statistics", description = "Port statistics polled from the switches.")
    public @interface Config {
        @AttributeDefinition(description = "Poll port statistics from start-up (Floodlight's default is off, and"
                + " its users then find no bandwidth).")
        boolean enabled() default true;

        @AttributeDefinition(min = "1", max = "3600", description = "Seconds between two polls of every switch.")
        int period() default 10;
    }

    /** The last reply's counters of one port, and the rate since the one before. */
    private record Sample(long nanos, long rxBytes, long txBytes, PortBandwidth rate) {
    }

    private record PortKey(long dpid, int port) {
    }

    private final IBeaconProvider beacon;
    private final IScheduler scheduler;
    private final Duration period;
    private final LongSupplier nanoClock;
    private final Clock wallClock;
    private final Map<PortKey, Sample> samples = new ConcurrentHashMap<>();
    private ScheduledFuture<?> poller;

    @Activate
    public StatisticsCollector(@Reference IBeaconProvider beacon, @Reference IScheduler scheduler, Config config) {
        this(beacon, scheduler, config, System::nanoTime, Clock.systemUTC());
    }

    StatisticsCollector(IBeaconProvider beacon, IScheduler scheduler, Config config, LongSupplier nanoClock,
            Clock wallClock) {
        this.beacon = beacon;
        this.scheduler = scheduler;
        this.period = Duration.ofSeconds(config.period());
        this.nanoClock = nanoClock;
        this.wallClock = wallClock;
        setEnabled(config.enabled());
    }

    @Deactivate
    void deactivate() {
        setEnabled(false);
    }

    @Override
    public synchronized boolean isEnabled() {
        return poller != null;
    }

    @Override
    public synchronized void setEnabled(boolean enabled) {
        if (enabled && poller == null) {
            poller = scheduler.scheduleAtFixedRate(this::poll, Duration.ZERO, period);
        } else if (!enabled && poller != null) {
            poller.cancel(false);
            poller = null;
            samples.clear();
        }
    }

    /** Asks every switch; a reply later than the period is dropped with a timeout, the next poll asks again. */
    void poll() {
        for (var sw : beacon.getSwitches().values()) {
            sw.getStatistics(new OFStatsRequest(0, new OFPortStatsRequest(OFPort.NONE)), period)
                    .whenComplete((replies, failure) -> {
                        if (failure != null) {
                            log.debug("port statistics of {}: {}", sw.getStringId(), failure.toString());
                        } else if (isEnabled()) {
                            record(sw.getId(), replies);
                        }
                    });
        }
    }

    private void record(long dpid, List<OFStatsReply> replies) {
        long now = nanoClock.getAsLong();
        var at = wallClock.instant();
        for (var reply : replies) {
            for (var e : ((OFPortStatsReply) reply.body()).entries()) {
                var key = new PortKey(dpid, e.portNo());
                var before = samples.get(key);
                PortBandwidth rate = null;
                // A counter that went back (port reset, switch restarted) gives no rate until the next reply.
                if (before != null && now > before.nanos() && Long.compareUnsigned(e.rxBytes(), before.rxBytes()) >= 0
                        && Long.compareUnsigned(e.txBytes(), before.txBytes()) >= 0) {
                    double seconds = (now - before.nanos()) / 1e9;
                    rate = new PortBandwidth(dpid, e.portNo(), at,
                            Math.round((e.rxBytes() - before.rxBytes()) * 8 / seconds),
                            Math.round((e.txBytes() - before.txBytes()) * 8 / seconds), e.rxBytes(), e.txBytes());
                }
                samples.put(key, new Sample(now, e.rxBytes(), e.txBytes(), rate));
            }
        }
    }

    @Override
    public List<PortBandwidth> getBandwidth() {
        var rates = new ArrayList<PortBandwidth>();
        var switches = beacon.getSwitches();
        samples.forEach((key, s) -> {
            var sw = switches.get(key.dpid());
            // A port deleted since its last reply is gone from the switch: its last rate is not news.
            if (s.rate() != null && sw != null && (key.port() == OFPort.LOCAL || sw.getPort(key.port()) != null)) {
                rates.add(s.rate());
            }
        });
        rates.sort(Comparator.<PortBandwidth, Long>comparing(PortBandwidth::dpid, Long::compareUnsigned)
                .thenComparingInt(PortBandwidth::port));
        return rates;
    }

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public void addedSwitch(IOFSwitch sw) {
    }

    @Override
    public void removedSwitch(IOFSwitch sw) {
        samples.keySet().removeIf(k -> k.dpid() == sw.getId());
    }
}
