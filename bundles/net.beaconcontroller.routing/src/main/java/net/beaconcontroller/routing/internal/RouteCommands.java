package net.beaconcontroller.routing.internal;

import java.util.Collection;
import java.util.Comparator;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.devicemanager.IDeviceManager;
import net.beaconcontroller.routing.IRoutingEngine;
import net.beaconcontroller.util.Dpids;
import net.beaconcontroller.util.IPv4Address;
import net.beaconcontroller.util.MacAddress;

/** {@code beacon:route SRC DST}: the route between two hosts, as routing would install it. */
@Component(service = RouteCommands.class, property = {"osgi.command.scope=beacon", "osgi.command.function=route"})
public final class RouteCommands {
    private final IDeviceManager devices;
    private volatile IRoutingEngine engine;

    @Activate
    public RouteCommands(@Reference IDeviceManager devices) {
        this.devices = devices;
    }

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    public void bindEngine(IRoutingEngine next) {
        engine = next;
    }

    public void unbindEngine(IRoutingEngine gone) {
        if (engine == gone) {
            engine = null;
        }
    }

    /**
     * {@code beacon:route 00:00:00:00:00:01 10.0.0.2}: one line per hop (switch, in port, out port), or why there is
     * no route. A host is given by MAC or IPv4 address; of several matches (VLANs), the one seen last is used.
     */
    public String route(String src, String dst) {
        Device from;
        Device to;
        try {
            from = host(src);
            to = host(dst);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        var e = engine;
        if (e == null) {
            return "no routing engine is running";
        }
        var hops = e.getRoute(from.attachment(), to.attachment());
        if (hops.isEmpty()) {
            return "no route from " + src + " at " + from.attachment() + " to " + dst + " at " + to.attachment()
                    + ": different islands";
        }
        var sb = new StringBuilder(String.format("%-23s  %7s  %8s%n", "DPID", "IN PORT", "OUT PORT"));
        hops.forEach(h -> sb.append(String.format("%-23s  %7d  %8d%n", Dpids.toString(h.dpid()), h.inPort(),
                h.outPort())));
        return sb.append(hops.size()).append(" hop(s)").toString();
    }

    private Device host(String text) {
        Collection<Device> found;
        if (text.indexOf(':') >= 0 || text.indexOf('-') >= 0) {
            found = devices.getDevicesByMac(MacAddress.parse(text));
        } else if (text.indexOf('.') >= 0) {
            found = devices.getDevicesByIpv4(IPv4Address.parse(text));
        } else {
            throw new IllegalArgumentException("not a MAC or IPv4 address: '" + text + "'");
        }
        return found.stream().max(Comparator.comparing(Device::lastSeen))
                .orElseThrow(() -> new IllegalArgumentException("unknown host " + text));
    }
}
