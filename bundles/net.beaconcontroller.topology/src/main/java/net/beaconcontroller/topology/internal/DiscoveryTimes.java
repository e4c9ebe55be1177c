package net.beaconcontroller.topology.internal;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import net.beaconcontroller.config.SettingException;

/**
 * Discovery's durations, worked out once from its configuration: the probe rounds, the expiry and the check of a
 * probe's age each use some of them, and they only hold together (a link is given longer than the time between two
 * probes of its ports) when they are derived in one place.
 *
 * @param probeIntervalNanos between two probe rounds, and the most a probe may be old
 * @param livenessNanos      between two probes of the ports that end a known link; 0: none but the rounds'
 * @param refreshNanos       between two probes that refresh a known link
 * @param linkTimeoutNanos   how long a link stays without a probe crossing it
 * @param domainTimeoutNanos the same for broadcast-domain links, whose ports are probed every probe round only
 * @param quarantineNanos    how long new ports stay out of broadcasts
 * @param expiry             between two runs of the expiry
 */
record DiscoveryTimes(long probeIntervalNanos, long livenessNanos, long refreshNanos, long linkTimeoutNanos,
        long domainTimeoutNanos, long quarantineNanos, Duration expiry) {
    /** @throws SettingException when the link timeout is not above the time between probes of a link's ports */
    static DiscoveryTimes of(LinkDiscovery.Config config) {
        long liveness = TimeUnit.MILLISECONDS.toNanos(config.livenessInterval());
        long probeInterval = TimeUnit.SECONDS.toNanos(config.probeInterval());
        // Known links are refreshed by the liveness probes when there are any, else by every round's.
        long refresh = liveness > 0 ? Math.min(liveness, probeInterval) : probeInterval;
        long linkTimeout = config.linkTimeout() > 0 ? TimeUnit.SECONDS.toNanos(config.linkTimeout())
                : liveness > 0 ? refresh * 5 / 2 : probeInterval * 3 + TimeUnit.SECONDS.toNanos(1);
        long domainTimeout = Math.max(linkTimeout, probeInterval * 3 + TimeUnit.SECONDS.toNanos(1));
        if (linkTimeout <= refresh) {
            throw new SettingException(LinkDiscovery.NAME + ".linkTimeout", Integer.toString(config.linkTimeout()),
                    "expected more than the " + refresh / 1_000_000 + " ms between probes of a link's ports, or 0");
        }
        // Often enough that a link goes at most a quarter of a refresh interval after its timeout.
        var expiry = Duration.ofNanos(Math.max(refresh / 4, TimeUnit.MILLISECONDS.toNanos(50)));
        return new DiscoveryTimes(probeInterval, liveness, refresh, linkTimeout, domainTimeout,
                TimeUnit.MILLISECONDS.toNanos(config.quarantine()), expiry);
    }
}
