# frozen_string_literal: true

require "fileutils"
require "tmpdir"
require "nettyrack/war/settings"
require "nettyrack/war/warble_file"

RSpec.describe Nettyrack::War::WarbleFile do
  around do |example|
    Dir.mktmpdir("warble") do |dir|
      @app = dir
      FileUtils.mkdir_p(File.join(dir, "config"))
      FileUtils.mkdir_p(File.join(dir, "app"))
      example.run
    end
  end

  def load(source)
    File.write(File.join(@app, "config", "warble.rb"), source) if source
    described_class.load(Nettyrack::War::Settings.new(@app))
  end

  it "keeps Warbler's defaults without a warble.rb" do
    settings = load(nil)
    expect(settings.dirs).to eq(%w[app config])
    expect(settings.jar_name).to eq(File.basename(@app))
    expect(settings.webxml.context_params).to eq("rack.env" => "production", "public.root" => "/")
    expect(settings.warnings).to eq([])
  end

  it "applies the common settings of a Warbler::Config block" do
    settings = load(<<~RUBY)
      Warbler::Config.new do |config|
        config.dirs = %w[app lib]
        config.includes = FileList["extra/*.txt"]
        config.excludes += FileList["app/secret/**/*"] + [/\\.bak\\z/]
        config.jar_name = "shop"
        config.webxml.rack.env = "staging"
        config.webxml.jruby.max.runtimes = 1
        config.webxml.booter = :rack
        config.gems += ["tilt"]
        config.bundle_without << "tools"
      end
    RUBY
    expect(settings.dirs).to eq(%w[app lib])
    expect(settings.includes).to eq(["extra/*.txt"])
    expect(settings.excludes).to eq(["app/secret/**/*", /\.bak\z/])
    expect(settings.jar_name).to eq("shop")
    expect(settings.webxml.context_params)
      .to eq("rack.env" => "staging", "public.root" => "/", "jruby.max.runtimes" => "1")
    expect(settings.gems).to eq(["tilt"])
    expect(settings.bundle_without).to include("development", "tools")
    expect(settings.warnings).to eq([])
  end

  it "accepts the settings it does not support, warning once per name" do
    settings = load(<<~RUBY)
      Warbler.framework_detection = false
      Warbler::Config.new do |config|
        config.features = %w[executable]
        config.features << "gemjar"
        config.pathmaps.application += ["WEB-INF/%p"]
        config.war_name = "old-name"
      end
    RUBY
    expect(settings.jar_name).to eq("old-name")
    expect(settings.warnings).to eq([
      "Warbler.framework_detection is not supported by nettyrack war; ignored",
      "config.features is not supported by nettyrack war; ignored",
      "config.pathmaps is not supported by nettyrack war; ignored",
    ])
  end

  it "names the file and line of an error in it" do
    expect { load("Warbler::Config.new do |config|\n  config.dirs = undefined_thing\nend\n") }
      .to raise_error(Nettyrack::ConfigError, %r{config/warble\.rb: line 2: undefined local variable or method .undefined_thing})
    expect { load("Warbler::Config.new do |config|\n  config.dirs = [\nend\n") }
      .to raise_error(Nettyrack::ConfigError, %r{config/warble\.rb: syntax error})
  end
end
