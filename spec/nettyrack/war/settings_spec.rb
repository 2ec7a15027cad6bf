# frozen_string_literal: true

require "fileutils"
require "tmpdir"
require "nettyrack/war/settings"

RSpec.describe Nettyrack::War::Settings do
  around do |example|
    Dir.mktmpdir("settings") do |dir|
      @app = File.join(dir, "shop")
      %w[app config lib public].each { |sub| FileUtils.mkdir_p(File.join(@app, sub)) }
      example.run
    end
  end

  let(:settings) { described_class.new(@app) }

  it "starts from Warbler's defaults for this app" do
    expect([settings.dirs, settings.includes, settings.jar_name]).to eq([%w[app config lib], ["*file"], "shop"])
    expect([settings.bundler, settings.gem_dependencies, settings.exclude_logs]).to eq([true, true, true])
    expect(settings.bundle_without).to eq(%w[development test assets])
    expect(settings.all_excludes).to eq(["**/*.log", "tmp/cache/**/*", "tmp/war/**/*"])
  end

  it "leaves logs in when exclude_logs is false" do
    settings.exclude_logs = false
    settings.excludes = ["app/secret"]
    expect(settings.all_excludes).to eq(["app/secret", "tmp/cache/**/*", "tmp/war/**/*"])
  end

  it "warns about dirs the app does not have, and settings it does not support" do
    settings.dirs = %w[app vendor]
    settings.webserver = "jetty"
    expect(settings.all_warnings).to eq([
      "config.webserver is not supported by nettyrack war; ignored",
      "config.dirs: vendor is not a directory of the app; skipped",
    ])
  end
end
