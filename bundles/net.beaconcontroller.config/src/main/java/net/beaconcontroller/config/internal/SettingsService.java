package net.beaconcontroller.config.internal;

import java.util.List;
import java.util.Optional;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import net.beaconcontroller.config.ISettings;
import net.beaconcontroller.config.Setting;

/** The settings as a service, for other bundles (the REST API): what {@code beacon:config} shows and does. */
@Component
public final class SettingsService implements ISettings {
    private final ConfigAgent agent;

    @Activate
    public SettingsService(@Reference ConfigAgent agent) {
        this.agent = agent;
    }

    @Override
    public List<Setting> getSettings() {
        return agent.configurator().settings();
    }

    @Override
    public Optional<Setting> getSetting(String key) {
        return agent.configurator().setting(key);
    }

    @Override
    public Outcome set(String key, String value, boolean save) throws InterruptedException {
        return agent.configurator().set(key, value, save);
    }
}
