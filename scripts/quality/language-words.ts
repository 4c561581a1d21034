/**
 * Common words of ten languages, written in their own script, for the lip figures of
 * scripts/quality-languages.ts. Roughly half have a p, b or m; which ones do — and where — is not taken
 * from this list but from espeak-ng's own phonemes of each word (a Portuguese final m is a nasal vowel, a
 * Russian final б a p, a Japanese ん before p a nasal vowel). espeak-ng reads Japanese in kana only and
 * Mandarin in Han characters with its pinyin voice.
 */

export interface Language {
  /** espeak-ng voice. */
  voice: string;
  words: string[];
}

const list = (...lines: string[]) => lines.join(" ").split(" ");

export const LANGUAGES: Record<string, Language> = {
  es: {
    voice: "es",
    words: list(
      "padre madre bueno mesa pan boca mano playa cambio nombre tiempo mundo hombre comer primero pueblo",
      "semana campo pequeño lámpara piedra mujer mismo poco sombra palabra amor",
      "casa gato noche día agua tierra sol luna rojo hola gracias niño calle leche cielo río trece dinero",
      "ciudad coche tarde hijo diez nariz oreja año luz azul hielo gente",
    ),
  },
  fr: {
    voice: "fr",
    words: list(
      "pomme pain main maman papa beau bonjour merci mer mot plus petit pied bleu blanc temps table chambre",
      "jambe monde homme femme image premier bouche problème simple mouton bateau",
      "chat eau nuit jour lait soleil lune rouge cinq deux trois garçon fille chien oiseau neige rien jaune",
      "gris sel nez oreille tête coeur rue rose ciel soir dent sucre tard nord",
    ),
  },
  de: {
    voice: "de",
    words: list(
      "Mama Papa Baum Blume Mann Mutter Bruder Brot Milch Abend Morgen Himmel Name Platz Lampe immer Arm",
      "warum Bild Buch bitte Berg bald kommen Stimme Sommer Lippe",
      "Hund Katze Tag Nacht Sonne Haus Kind Tisch gut Hand Stadt Straße Schule Licht Zeit Jahr Kirche Gold",
      "Stein nein danke Zucker Hase Tür Zahn Leute heute rot grün Salz",
    ),
  },
  it: {
    voice: "it",
    words: list(
      "mamma papà bambino bello bene mano mare pane pesce porta ponte sempre amico pomodoro tempo mondo",
      "uomo campo bocca piede piccolo bianco bere lampada numero mela prima buono problema",
      "casa gatto cane notte giorno sole luna acqua terra rosso grazie ciao ragazzo latte sale naso dente",
      "cielo strada città scuola chiesa oro cuore tre cinque dieci zucchero lago gelato giallo",
    ),
  },
  pt: {
    voice: "pt",
    words: list(
      "mãe pai bom bem mesa pão boca mão mar pé ponte sempre amigo tempo mundo homem campo bonito pequeno",
      "branco beber muito manhã palavra porta cama menino peixe obrigado",
      "casa gato noite dia água terra sol lua gente cão sal nariz dente céu rua cidade carro leite hoje",
      "ontem dez três cinco oito agora coração cor ouro azul chuva areia",
    ),
  },
  ru: {
    voice: "ru",
    words: list(
      "мама папа брат мир мой море молоко пять работа быть белый большой время память место может",
      "первый голубой рыба хлеб собака мы мясо правда пол помощь облако тепло",
      "кот сын день ночь солнце луна снег земля город друг нет да я ты он она чай сахар лес река книга",
      "стол сто три рука нога чисто кошка",
    ),
  },
  pl: {
    voice: "pl",
    words: list(
      "mama babcia mleko morze miasto papier piwo pies pięć brat biały być obiad pomoc praca dom ptak mały",
      "miłość pociąg imię zima niebo człowiek",
      "kot noc dzień słońce ziemia las rzeka ręka noga tak nie dziękuję szkoła cześć dziecko kino ogień",
      "serce cukier sól złoto syn córka tata jeden trzy cztery sześć osiem dziesięć kura",
    ),
  },
  hi: {
    voice: "hi",
    words: list(
      "पानी बहुत मैं माँ पिता बच्चा भाई बहन मकान मुँह फल प्यार बात कमरा समय नमस्ते किताब पेड़ बाज़ार",
      "मीठा आम काम नाम हम तुम पत्थर बादल मछली मेज़",
      "घर दिन रात सूरज चाँद लड़का लड़की दोस्त सच दस तीन चार छह आठ गाड़ी दाल चाय नदी हाथ आँख कान दिल",
      "लाल हरा सड़क शहर रोटी चीनी नीला ठंडा अच्छा दूध",
    ),
  },
  ja: {
    voice: "ja",
    words: list(
      "みず ばなな ぱん まど ともだち まいにち あめ うみ やま くるま なまえ むすめ しんぶん てんぷら みみ",
      "まめ ぶた おもしろい かみ すみません べんきょう びょういん たまご てがみ ことば",
      "さかな ねこ いぬ とり はな たかい あたらしい ちいさい おおきい しごと えき つくえ いす きって",
      "かさ あさ よる ひる なつ あき にく さけ かぞく こども おかね いちご すし そら ゆき きのう あした",
    ),
  },
  zh: {
    voice: "cmn-latn-pinyin",
    words: list(
      "妈妈 爸爸 朋友 不 门 面 米饭 苹果 北京 白 本 明天 木 买 卖 没有 每天 跑步 便宜 漂亮 杯子 帮助",
      "名字 美国 猫 帽子 包 笔 病",
      "你好 谢谢 中国 是 人 大 小 水 天 他 好 吃 喝 茶 书 学生 老师 电话 时间 今天 东西 汽车 学校",
      "医生 狗 鸡 红色 黄色 叫 几 想 说 看 来 去 家 车",
    ),
  },
};
