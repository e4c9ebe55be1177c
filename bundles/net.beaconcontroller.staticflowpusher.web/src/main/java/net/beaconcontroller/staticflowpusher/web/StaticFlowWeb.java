package net.beaconcontroller.staticflowpusher.web;

import java.util.List;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import net.beaconcontroller.staticflowpusher.IStaticFlowPusher;
import net.beaconcontroller.web.IWebManageable;
import net.beaconcontroller.web.Page;

/** The static flow pusher's REST endpoints, Floodlight v1.2's {@code /wm/staticflowpusher/...}. */
@Component
public final class StaticFlowWeb implements IWebManageable {
    private final List<Object> controllers;

    @Activate
    public StaticFlowWeb(@Reference IStaticFlowPusher pusher) {
        controllers = List.of(new StaticFlowController(pusher));
    }

    @Override
    public List<Object> controllers() {
        return controllers;
    }

    @Override
    public List<Page> pages() {
        return List.of(new Page("static-flows", "Static flows", 50, "ui/static-flows.js"));
    }
}
