module nettyrack/bench/pushclient

go 1.19

require github.com/gorilla/websocket v1.5.3
