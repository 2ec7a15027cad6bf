# frozen_string_literal: true

require "tmpdir"
require "nettyrack/war/gem_set"
require "nettyrack/war/settings"

RSpec.describe Nettyrack::War::GemSet do
  around do |example|
    Dir.mktmpdir("gem-set") do |dir|
      @app = dir
      example.run
    end
  end

  let(:settings) { Nettyrack::War::Settings.new(@app) }

  def names
    described_class.new(settings).specs.map(&:name)
  end

  it "takes the Gemfile's gems, resolved from the installed ones, less its test group" do
    File.write(File.join(@app, "Gemfile"), "source 'https://rubygems.org'\ngem 'sinatra', '~> 3.0'\n" \
                                           "group :test do\n  gem 'rspec'\nend\n")
    expect(names).to include("sinatra", "rack", "rack-protection", "mustermann", "tilt")
    expect(names).not_to include("rspec", "rspec-core", "bundler", "nettyrack")
    expect(Dir.children(@app)).to eq(["Gemfile"]) # no Gemfile.lock written
  end

  it "gives the lock it resolved, for the WAR, when the app has none; none when the app has its own" do
    File.write(File.join(@app, "Gemfile"), "source 'https://rubygems.org'\ngem 'rack'\ngroup :test do\n  gem 'rspec'\nend\n")
    set = described_class.new(settings)
    set.specs
    # All groups: Bundler in the WAR reads the lock and then skips what BUNDLE_WITHOUT names.
    expect(set.lockfile).to match(/^DEPENDENCIES\n  rack\n  rspec\n/)
    expect(set.lockfile).to match(/^    rack \(\d+\.\d+\.\d+\)$/)
    File.write(File.join(@app, "Gemfile.lock"), set.lockfile)
    own = described_class.new(settings)
    own.specs
    expect(own.lockfile).to be_nil
    expect(described_class.new(Nettyrack::War::Settings.new(Dir.mktmpdir("no-gemfile", @app))).lockfile).to be_nil
  end

  it "brings Rack and warble.rb's gems with their dependencies when there is no Gemfile" do
    expect(names).to eq(["rack"])
    settings.gems = ["rack-protection"]
    expect(names).to eq(%w[rack rack-protection])
  end

  it "says which gems it cannot find" do
    File.write(File.join(@app, "Gemfile"), "source 'https://rubygems.org'\ngem 'no-such-gem-here'\n")
    expect { names }.to raise_error(Nettyrack::ConfigError, /cannot resolve the gems of .*Gemfile .*no-such-gem-here.*bundle install/)
    settings.bundler = false
    settings.gems = ["no-such-gem-here"]
    expect { names }.to raise_error(Nettyrack::ConfigError, "gem no-such-gem-here (>= 0) is not installed here")
  end
end
