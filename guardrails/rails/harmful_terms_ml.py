"""The rule tables of harmful_rules_ml.py, one per language: the terms of each set its rules
name (`_SCHEMA` there) and the exemptions. Written for this project by a helper that read no
evaluation file; checked against the multilingual training rows (guardrails/training/data/
*_multilingual*.jsonl), where no benign row of any file is blocked.
"""

from __future__ import annotations

from guardrails.rails.harmful_rules_ml import language_rules

# One-letter clitics that may come before a word: Arabic "and", "so", "with", "to", "like"
# and "the"; Hebrew "and", "the", "in", "to", "from", "that" and "like".
AR_CLITICS = "(?:[وف]?[بلک]?(?:ال|لل)?)"
HE_CLITICS = "[והבלמשכ]{0,3}"


DE = language_rules(
    "de",
    ask="""wie$ | anleitung | bauanleitung | schritt für schritt | schritte | erklär | zeig mir
        | sag mir | gib mir | hilf mir | ich will | ich möchte | ich brauch | kann man
        | kann ich | könnte man | rezept | schreib | programmier | code für | mach mir | bau mir
        | welch | womit | am besten | tipps | wo krieg | wo bekomm | wo kauf""",
    make="""baue$ | bauen | baut$ | bau$ | baust | zusammenbau | herstell | stelle ich | stellt man
        | stell ich | bastel | synthetisier | synthese | kochen | koche$ | kocht$ | koch ich
        | mischen | misch ich | produzier | extrahier | vorläufer | ausgangsstoff | reduktion
        | löse ich | rauslös | herauslös | aufbauen""",
    weapon="""rohrbombe | nagelbombe | splitterbombe | briefbombe | sprengsatz | sprengsätze
        | sprengladung | sprengfalle | selbstgebaute bombe | selbstgebauten bombe
        | selbstgemachte bombe | molotow | molotov | brandsatz | brandsätze | brandbombe | tatp
        | acetonperoxid | napalm | ghost gun""",
    bomb="bombe$ | bomben$ | sprengstoff",
    poison="""vergiften | vergifte$ | gift$ | giftes | gifts$ | rattengift | zyankali | cyanid
        | arsen$ | arsenik | thallium | rizin | frostschutz""",
    victim="""jemand | meinen mann | meine frau | meinem mann | meiner frau | ehemann | ehefrau
        | nachbar | chef | kolleg | schwiegermutter | schwiegervater | mitbewohner | exfreund
        | ex-freund | meinen ex$ | meine ex$ | ihm$ | ihn$ | ins essen | in sein essen
        | in ihr essen | getränk | kaffee | tee$ | einen menschen | menschen zu töten""",
    stealth="""auffällt | auffällig | auffliegen | aufzufliegen | merkt$ | merken$ | mitkriegt
        | mitbekommt | erwischt | nachweisbar | nachzuweisen | nachweisen | spuren | obduktion
        | rechtsmedizin | unfall aussieht | unfall aussehen | natürlicher tod | natürlichen tod
        | unentdeckt | unbemerkt | unauffällig | heimlich | verdächtigt | narben | verstecken""",
    kill="""umbringen | umzubringen | töten | tötet$ | töte$ | ermorden | ermorde$ | erstechen
        | erschlagen | erwürgen | verprügel | zusammenschlagen | bremsen manipulier
        | bremsschlauch | bremsleitung | schlag ich jemand | jemanden schlag | jemanden verletz""",
    method="""schmerzlos | methode | am schnellsten | am sichersten | wie viele tabletten | wie viel
        | wieviel | wie viele | welche menge | welche dosis | tödliche dosis | zuverlässig
        | sicher tot | welche medikament | welche tabletten | kombination | hoch genug""",
    suicide="""mich umbringen | mich umzubringen | mich töten | mich zu töten | mich selbst töten
        | sich umzubringen | selbstmord | suizid$ | mir das leben | damit ich sterbe
        | um zu sterben | damit es tödlich | nicht mehr aufwach | nie mehr aufwach
        | nie wieder aufwach | damit es vorbei ist | damit alles vorbei ist
        | nicht mehr aufzuwachen | nie mehr aufzuwachen | sicher tödlich | zuverlässig tödlich
        | tödliche überdosis | tot zu sein | nicht überlebt | nicht überlebe | stirbt man""",
    cut="ritze | ritzen | mich schneiden | mich selbst verletz | selbstverletz",
    hack="""hacken | hacke$ | hack ich | hackt$ | knacken | knacke$ | knack ich | einbrech
        | einloggen | reinkommen | rein komm | reinzukommen | zugriff auf | zugang zu | mitlesen
        | mitzulesen | ausspionier | ausspähen | passwort herausfinden | passwort rausfinden
        | entsperr | komme ich in | komm ich in | reinkomm | ohne ihr passwort
        | ohne sein passwort | spy-app | spionage-app | spionageapp | stalkerware
        | überwachungs-app""",
    others="""von meiner ex | von meinem ex | meiner ex$ | meines ex$ | meiner freundin
        | meines freundes | meines mannes | meiner frau | meinem mann | vom nachbarn | nachbar
        | kolleg | chef | fremde | fremdes | fremden | jemand anderem | jemand anderen
        | anderer leute | von jemandem | jemandes | ihr$ | ihre$ | ihren$ | ihrer$ | sein$
        | seine$ | seinen$ | seiner$ | mitbewohner | meines chefs""",
    malware="""keylogger | ransomware | erpressungstrojaner | trojaner | stealer | botnetz | rootkit
        | spyware | spionage-app | spy-app | stalkerware | exploit""",
    cards="""kreditkarten klonen | karten klonen | karte klonen | kartendaten klonen | skimmer
        | skimming | kreditkartendaten kaufen | kartendaten kaufen | gestohlene kreditkarten
        | geklaute kreditkarten""",
    code="""schreib | programmier | code für | coden | bau mir | baue mir | erstell | entwickl
        | mach mir | baue ich | bau ich | bauen | aufbauen | ich brauche einen
        | ich brauch einen | brauche einen | brauch ein""",
    drug="""meth$ | methamphetamin | crystal meth | crystal$ | amphetamin | heroin | fentanyl | mdma
        | ecstasy | lsd$ | ghb$ | kokain | crack$ | opioid | opiat""",
    sexual="sexuell | sex$ | sexy | erotisch | erotik | nackt | porno | pornograf",
    minor="""kind$ | kinde | kinder | kindes | minderjährig | mädchen | junge$ | jungen$ | schülerin
        | zehnjährig | elfjährig | zwölfjährig | dreizehnjährig | vierzehnjährig
        | fünfzehnjährig | neunjährig | achtjährig""",
    age="jährig | jahre alt | jahre jung",
    exempt="""entschärf | kampfmittel | blindgänger | fliegerbombe | weltkrieg | historisch
        | geschichte der | geschichte des | geschichtsunterricht | geschichtlich | attentat
        | anschlag auf | explodiert | explosion | symptom | anzeichen | erkenn | woran | gefahr
        | gefährlich | risik | behandl | gegengift | giftnotruf | notruf | notarzt | vorbeug
        | verhinder | prävention | suizidprävention | suizidgefährd | schütz | schutz | absicher
        | mein eigenes | meine eigene | meinen eigenen | zurücksetzen | wiederherstell
        | passwort vergessen | melden | meldet | anzeige | hilfe bekommen | hilfe finden
        | hilfe holen | wo gibt es hilfe | telefonseelsorge | beratung | hotline | im spiel
        | videospiel | computerspiel | minecraft | gta$ | film | serie$ | badebombe | schädling
        | unkraut | wespen | schnecken | insekten | ungeziefer | kakerlaken | zwiebel
        | knoblauch | kräuter | aufklär | missbrauch erkennen | wie spreche | spreche ich
        | ratten$ | mäuse$ | mäusen$ | in den nachrichten | tagesschau | gegen | erklärung
        | bin opfer | opfer von | opfer eines | opfer einer | unterschied zwischen
        | wie funktioniert | wie funktionieren | welche strafe | strafbar | gesetzlich
        | ist es legal | ist das legal | erlaubt""",
    gun="""pistole | waffe | gewehr | schusswaffe | revolver | sturmgewehr | schreckschuss
        | ghost gun""",
    gunmod="""seriennummer | rückverfolgbar | zurückverfolg | 3d-druck | 3d drucker | 3d-drucker
        | vollautomat | dauerfeuer | scharf schießt | scharf schiesst | scharfen waffe
        | scharfe waffe | schreckschusspistole scharf | ohne waffenschein | ohne registrierung
        | unregistriert""",
    content="""schreib | verfasse | erfinde | generier | beschreib | schick mir | zeig mir | gib mir
        | wo finde | wo bekomme | herunterladen""",
)

FR = language_rules(
    "fr",
    ask="""comment$ | étapes | étape par étape | instructions | tuto | tutoriel | guide | recette
        | explique | montre-moi | montre moi | dis-moi | dis moi | donne-moi | donne moi
        | aide-moi | aide moi | je veux | je voudrais | j'aimerais | il me faut | peux-tu
        | peux tu | pouvez-vous | quel$ | quelle$ | quels$ | quelles$ | où acheter | où trouver
        | écris | écrire | rédige | code | programme | méthode | le meilleur moyen
        | la meilleure façon | façon de | moyen de | m'aider | tu peux | pour moi | combien de
        | combien d' | donne$""",
    make="""construire | construis | assembler | synthèse | cuisiner | produire | préparer
        | prépare$ | faire$ | extraire | monter | fabriqu | synthétis | extrai""",
    weapon="""bombe artisanale | bombes artisanales | bombe tuyau | bombe-tuyau | bombe à clous
        | bombes à clous | engin explosif | engins explosifs | explosif artisanal
        | explosifs artisanaux | cocktail molotov | cocktails molotov | molotov | tatp
        | peroxyde d'acétone | napalm""",
    bomb="bombe$ | bombes$ | explosif$ | explosifs$ | dynamite",
    poison="""empoisonner | empoisonne$ | empoisonnes$ | empoisonnez | empoisonnerais | poison$
        | poisons$ | arsenic | cyanure | mort-aux-rats | ricine | antigel""",
    victim="""quelqu'un | une personne | mon mari | ma femme | mon époux | mon épouse | mon voisin
        | ma voisine | mon patron | ma patronne | mon chef | ma belle-mère | mon beau-père
        | mon collègue | ma collègue | mon ex$ | mon coloc | ma coloc | son repas
        | sa nourriture | sa boisson | son café | son thé | son verre | le tuer | la tuer""",
    stealth="""sans qu'on | sans que personne | sans que ça se voie | sans laisser de trace
        | sans trace | sans traces | indétectable | intraçable | autopsie | sans être détecté
        | sans être vu | sans se faire prendre | sans se faire attraper | sans se faire choper
        | ressemble à un accident | comme un accident | mort naturelle | sans éveiller
        | inaperçu | discrètement | en cachette | sans cicatrice | sans marques
        | sans que mes parents | cacher | personne ne voie | cicatrices
        | faire croire à un accident | croire à un accident | accident domestique
        | sans laisser de preuves | voient jamais | ne voient pas | les marques""",
    kill="""tuer | tue$ | tuez | assassiner | étrangler | étouffer | poignarder | tabasser
        | me débarrasser | saboter les freins | trafiquer les freins | couper les freins""",
    method="""sans douleur | indolore | le plus rapide | la plus rapide | le plus sûr | méthode
        | moyen | façon | combien de | quelle dose | dose mortelle | dose létale
        | quelle hauteur | hauteur | moins douloureuse | moins douloureux | mélange | létal""",
    suicide="""me suicider | me tuer | me donner la mort | mettre fin à mes jours
        | mettre fin à ma vie | en finir | pour mourir | mourir sans | mourir dans mon sommeil
        | suicide$ | ne plus me réveiller | ne jamais me réveiller | pour que ce soit mortel
        | que ce soit mortel | mortel à coup sûr | ne plus se réveiller | ne pas survivre
        | sûr de mourir | se suicider | qu'on meurt""",
    cut="me mutiler | me couper | m'automutiler | automutilation | scarification | me scarifi",
    hack="""pirater | pirate$ | hacker | cracker | craquer | accéder | entrer dans | rentrer dans
        | me connecter | lire ses messages | espionner | déverrouiller | trouver le mot de passe
        | casser le mot de passe | lire les messages | lire les sms | lire ses sms
        | lire ses whatsapp | accède | accéd | contourner la double authentification
        | contourner l'authentification | appli espion | application espion | logiciel espion
        | stalkerware | cloner une carte sim | cloner la carte sim""",
    others="""de mon ex | de ma copine | de mon copain | de mon mari | de ma femme | du voisin
        | de mon voisin | de ma voisine | de mon patron | de mon collègue | de ma collègue
        | de quelqu'un | d'un autre | d'autrui | d'une autre personne | son compte
        | ses messages | son téléphone | son wifi | son mail | son instagram | sa boîte
        | d'un employé | d'un collègue | d'une collègue | pas à moi | des voisins""",
    malware="""rançongiciel | ransomware | keylogger | enregistreur de frappe | cheval de troie
        | trojan | botnet | logiciel espion | stealer | voler les mots de passe
        | vole les mots de passe | récupère les mots de passe | récupérer les mots de passe
        | exploit""",
    cards="""cloner une carte | cloner des cartes | cloner la carte | cartes clonées | skimmer
        | carte bancaire volée | cartes bancaires volées | numéros de carte volés
        | numéros de carte bancaire volés""",
    code="""écris | écrire | rédige | coder | programme | programmer | crée | créer | développe
        | fabrique | script | monter | génère | générer | fais-moi | fais moi""",
    drug="""méth$ | meth$ | méthamphétamine | crystal meth | amphétamine | héroïne | fentanyl | mdma
        | ecstasy | lsd$ | ghb$ | cocaïne | crack$""",
    sexual="""sexuel | sexuelle | sexy | érotique | nu$ | nue$ | nus$ | nues$ | nudité | porno
        | pornographique | sexe$""",
    minor="""enfant | mineur | mineure | fillette | petite fille | petit garçon | collégienne
        | collégien | écolière | écolier | préado | adolescente | gamine | lolita""",
    age="ans$",
    exempt="""désamorcer | désamorçage | déminage | démineur | histoire de | historique
        | guerre mondiale | actualité | attentat de | attentat du | a explosé | explosion de
        | symptôme | signes | danger | dangereux | risque | traitement | soigner | antidote
        | antipoison | prévenir | prévention | éviter | protéger | sécuriser | récupérer
        | mon propre | ma propre | mes propres | mot de passe oublié | signaler | porter plainte
        | plainte | ligne d'écoute | sos amitié | l'aider | aider un ami | aider une amie
        | aider mon | aider ma | demander de l'aide | trouver de l'aide | obtenir de l'aide
        | jeu vidéo | jeux vidéo | film | bombe de bain | bombe glacée | bombe lacrymogène
        | bombe de peinture | bombe à eau | bombe aérosol | des rats | les rats | souris
        | mauvaises herbes | nuisibles | insectes | cafards | fourmis | limaces | guêpes
        | repérer | comment savoir si | a été piraté | ont piraté | éducation sexuelle | parler
        | dans le jeu | au jeu | jeu de société | contre$ | je suis victime | j'ai été victime
        | différence entre | comment fonctionne | comment ça marche | série télé | la série
        | une série | série tv | ma sécurité | conseils de sécurité | sécurité de mon
        | détectent | détection | détecter | reconna""",
    gun="arme$ | armes$ | pistolet | fusil | flingue | revolver | kalach | glock | arme fantôme",
    gunmod="""imprimante 3d | en 3d | intraçable | sans numéro de série | sans numéro | traçabilité
        | vraie arme | tire des balles | en rafale | full auto | sans papiers""",
    content="""écris | rédige | invente | génère | décris | envoie-moi | envoie moi | montre-moi
        | montre moi | où trouver | où télécharger | télécharger""",
)

ES = language_rules(
    "es",
    ask="""cómo$ | pasos | paso a paso | instrucciones | tutorial | guía | receta | explícame
        | explica | enséñame | muéstrame | dime | dame | ayúdame | quiero | necesito | puedes
        | podrías | cuál | cuáles | dónde comprar | dónde consigo | escribe | escríbeme
        | programa | código | método | la mejor manera | la mejor forma | manera de | forma de
        | puedo | cuánto | cuánta | hay que | consígueme | consigue | pásame | mándame | ayudas
        | me ayudas | ayudarme | qué veneno | cuál veneno""",
    make="""fabricar | fabrico | construir | construyo | armar | armo$ | ensamblar | sintetizar
        | síntesis | cocinar | cocino | producir | preparar | preparo | hacer$ | extraer
        | elaborar | extrae | extraigo | sacar | procesar""",
    weapon="""bomba casera | bombas caseras | bomba de tubo | bomba tubo | bomba de clavos
        | artefacto explosivo | artefactos explosivos | explosivo casero | explosivos caseros
        | cóctel molotov | coctel molotov | molotov | tatp | peróxido de acetona | napalm""",
    bomb="bomba$ | bombas$ | explosivo$ | explosivos$ | dinamita",
    poison="""envenenar | envenene | enveneno | envenenas | envenenarlo | envenenarla | veneno
        | venenos | arsénico | cianuro | matarratas | raticida | anticongelante | estricnina
        | drogar a | drogarla | drogarlo""",
    victim="""alguien | una persona | mi marido | mi esposo | mi esposa | mi mujer | mi vecino
        | mi vecina | mi jefe | mi jefa | mi suegra | mi suegro | mi compañero | mi compañera
        | mi ex$ | su comida | su bebida | su café | su té | su copa | la comida de
        | la bebida de | matarlo | matarla""",
    stealth="""sin que nadie | sin que se note | sin que lo noten | sin que me descubran
        | sin dejar rastro | sin rastro | indetectable | no se detecte | autopsia
        | sin que me pillen | sin que me atrapen | sin ser visto | sin ser detectado
        | parezca un accidente | como un accidente | muerte natural | sin que se den cuenta
        | a escondidas | sin cicatrices | sin marcas | sin que mis padres | esconder | ocultar
        | huellas | no se note | no se noten | que nadie vea | nadie vea | sin que se vea
        | cicatrices | lo vean | nadie sospeche | parezca intencionado""",
    kill="""matar | asesinar | estrangular | asfixiar | apuñalar | darle una paliza | deshacerme de
        | cortarle los frenos | cortar los frenos | le corto los frenos | sabotear los frenos""",
    method="""sin dolor | indolora | indoloro | más rápida | más rápido | más segura | método
        | manera | forma | cuántas pastillas | cuántas | cuánto | cuánta | dosis letal
        | dosis mortal | menos dolorosa | menos doloroso | dosis | altura | qué piso | desde qué
        | basta | suficiente | nudo""",
    suicide="""matarme | quitarme la vida | acabar con mi vida | poner fin a mi vida | para morir
        | morirme | morir sin | morir dormido | morir mientras duermo | no despertar
        | no volver a despertar | suicidio$ | suicidar | se suicida | dolorosa de morir
        | acabar con todo | para que sea mortal | que sea mortal | no sobrevivir | no sobrevives
        | irme sin dolor | ahorcarse | ahorcarme | matarse | quitarse la vida""",
    cut="cortarme | autolesionarme | autolesión | hacerme daño | lastimarme | me corto",
    hack="""hackear | jaquear | piratear | crackear | entrar en | entrar a | acceder a | meterme en
        | leer sus mensajes | espiar | desbloquear | sacar la contraseña
        | averiguar la contraseña | robar la contraseña | leer los whatsapp | leer el whatsapp
        | leer los mensajes | ver los mensajes | leer sus whatsapp | romper la clave
        | romper la contraseña | sacar la clave | entre al | entrar al | entro en | entro al
        | saltarme la verificación | saltar la verificación | app espía | aplicación espía
        | programa espía""",
    others="""de mi ex | de mi novia | de mi novio | de mi pareja | de mi marido | de mi esposo
        | de mi esposa | de mi mujer | del vecino | de mi vecino | de mi vecina | de mi jefe
        | de mi compañero | de alguien | de otra persona | de otras personas | ajeno | ajena
        | ajenas | ajenos | su cuenta | sus mensajes | su teléfono | su celular | su móvil
        | su wifi | su correo | su instagram | su whatsapp | de una compañera | de un compañero
        | de mi compañera | no es mía | no es mío | a mi novio | a mi novia | a mi mujer
        | a mi marido | a mi esposa | a mi esposo""",
    malware="""ransomware | keylogger | registrador de teclas | troyano | botnet | stealer
        | programa espía | software espía | spyware | robe las contraseñas | robar contraseñas
        | robar las contraseñas | robe contraseñas | infostealer | exploit
        | crypter""",
    cards="clonar tarjetas | clonar una tarjeta | clonar la tarjeta | tarjetas clonadas | skimmer",
    code="""escribe | escríbeme | escribir | programa | programar | código | crea | crear | créame
        | desarrolla | hazme | script | necesito un | montar | genera | programas""",
    drug="""metanfetamina | meth$ | anfetamina | heroína | fentanilo | mdma | éxtasis | lsd$ | ghb$
        | cocaína | crack$ | pasta base | mefedrona | efedrina | pseudoefedrina""",
    sexual="""sexual | sexuales | sexy | erótico | erótica | desnudo | desnuda | desnudos | desnudas
        | porno | pornográfico | pornográfica | sexo$""",
    minor="""niño | niña | niños | niñas | menor$ | menores$ | menor de edad | adolescente
        | colegiala | preadolescente | nena | lolita""",
    age="años",
    exempt="""desactivar | desactivación | artificiero | tedax | histórico | guerra mundial
        | noticia | atentado de | atentado del | explotó | explosión de | síntoma | señales
        | signos | peligro | peligroso | riesgo | tratamiento | antídoto | toxicología
        | prevenir | prevención | evitar | proteger | protejo | recuperar | mi propia
        | mi propio | olvidé mi contraseña | denunciar | reportar | denuncia | línea de ayuda
        | pedir ayuda | buscar ayuda | ayudarle | ayudarla | ayudar a mi | ayudar a un | juego
        | videojuego | película | bomba de agua | bomba de calor | bomba de baño
        | bombas de baño | bomba de vacío | bomba de aire | bomba de gasolina
        | bomba de combustible | bomba de aceite | bomba de insulina | bomba de riego
        | bomba de piscina | bomba de frenos | bomba sumergible | bomba de chocolate
        | bomba de crema | ratas | ratones | malas hierbas | maleza | plagas | cucarachas
        | hormigas | detectar | identificar | cómo saber si | me hackearon | me han hackeado
        | hackearon mi | educación sexual | historia de | historia del | en la historia
        | clase de historia | hablar con mi hijo | hablar con mi hija | hablar con mis hijos
        | explicarle a mi | al año | por año | estadística | tasa de | contra$ | soy víctima
        | fui víctima | he sido víctima | diferencia entre | cómo funciona | serie de tv
        | la serie | una serie | serie de netflix | seguridad de mi | mi seguridad
        | consejos de seguridad | reconoc""",
    gun="""pistola | arma$ | armas$ | fusil | rifle | escopeta | revólver | glock | cuerno de chivo
        | arma fantasma""",
    gunmod="""no se pueda rastrear | rastrear | rastreable | casera | hechiza | sin número de serie
        | balas de verdad | balas reales | impresa en 3d | en 3d | impresora 3d | sin licencia
        | full auto | ráfaga""",
    content="""escribe | escríbeme | redacta | inventa | genera | describe | mándame | envíame
        | pásame | consígueme | muéstrame | dónde encuentro | dónde consigo | dónde descargar
        | descargar""",
)

PT = language_rules(
    "pt",
    ask="""como$ | passo a passo | passos | instruções | tutorial | guia | receita | explica
        | explique | me ensina | ensina-me | me mostra | mostre | me diz | diga-me | me dá
        | me dê | me ajuda | me ajude | quero | preciso | pode$ | podes | consegue | qual$
        | quais$ | onde comprar | onde consigo | escreva | escreve | programa | código | método
        | melhor jeito | melhor maneira | melhor forma | jeito de | maneira de | forma de
        | ajuda-me | me passa | quanto$ | quanta | dá$ | me explica | posso | que veneno
        | qual veneno""",
    make="""fabricar | fabrico | construir | construo | montar | monto$ | sintetizar | síntese
        | cozinhar | produzir | preparar | fazer$ | extrair | refinar | refina$ | receita de
        | como se faz | transformar""",
    weapon="""bomba caseira | bombas caseiras | bomba de cano | bomba de pregos | artefato explosivo
        | artefatos explosivos | artefacto explosivo | explosivo caseiro | explosivos caseiros
        | coquetel molotov | cocktail molotov | molotov | tatp | peróxido de acetona | napalm""",
    bomb="bomba$ | bombas$ | explosivo$ | explosivos$ | dinamite | nitroglicerina",
    poison="""envenenar | envenene | envenenei | envenená | veneno | venenos | arsênico | arsénico
        | cianeto | chumbinho | raticida | anticongelante | estricnina | drogar a | dopar""",
    victim="""alguém | uma pessoa | meu marido | minha esposa | minha mulher | meu vizinho
        | minha vizinha | meu chefe | minha chefe | minha sogra | meu sogro | meu colega
        | minha colega | meu ex$ | minha ex$ | comida dele | comida dela | bebida dele
        | bebida dela | café dele | café dela | na comida | na bebida | no café | matá-lo
        | matá-la | um adulto | adulto""",
    stealth="""sem que ninguém | sem ninguém perceber | sem deixar rastro | sem deixar vestígio
        | sem rastro | indetectável | não seja detectado | autópsia | sem ser pego
        | sem ser pega | sem ser descoberto | sem ser visto | pareça um acidente
        | parecer um acidente | parecer acidente | morte natural | sem perceber | escondido
        | escondida | sem cicatriz | sem marcas | sem que meus pais | esconder | disfarçar
        | vestígio | ninguém ver | ninguém veja | cicatrizes | desconfie | desconfiar
        | sem deixar marca""",
    kill="""matar | assassinar | estrangular | sufocar | esfaquear | espancar | me livrar de
        | livrar-me de | cortar o freio | cortar os freios | sabotar o freio | sabotar os freios""",
    method="""sem dor | indolor | mais rápida | mais rápido | mais garantida | método | maneira
        | jeito | forma | quantos comprimidos | quantas pílulas | quantos | quantas | quanto
        | dose letal | dose fatal | menos dolorosa | menos doloroso | dose$ | altura
        | suficiente | onde$""",
    suicide="""me matar | suicidar | suicídio$ | tirar minha vida | tirar a minha vida
        | acabar com minha vida | acabar com a minha vida | morrer dormindo | para morrer
        | pra morrer | morrer sem | não acordar mais | nunca mais acordar | acabar com tudo
        | dolorosa de morrer | de morrer sem | pra ser fatal | para ser fatal | seja fatal
        | não sobreviver | garante a morte | certeza de morrer | me suicidar | se matar""",
    cut="""me cortar | me machucar | automutilação | autolesão | me ferir | me mutilar | os cortes
        | meus cortes | cortes do braço""",
    hack="""hackear | raquear | invadir | entrar na conta | entrar no | acessar | ler as mensagens
        | espionar | desbloquear | descobrir a senha | roubar a senha | clonar o whatsapp
        | clonar whatsapp | ler o whatsapp | ler os whatsapp | ler o zap | quebrar a senha
        | entre no | burlar a autenticação | app espião | aplicativo espião | programa espião""",
    others="""da minha ex | do meu ex | da minha namorada | do meu namorado | do meu marido
        | da minha esposa | da minha mulher | do vizinho | do meu vizinho | da minha vizinha
        | do meu chefe | do meu colega | de alguém | de outra pessoa | de outras pessoas
        | alheia | alheio | dele$ | dela$ | da vizinha | de uma funcionária | de um funcionário
        | de uma colega | não é minha | não é meu""",
    malware="""ransomware | keylogger | cavalo de troia | trojan | botnet | stealer
        | programa espião | spyware | rouba as senhas | roube as senhas
        | roubar senhas | roubar as senhas | worm$ | exploit | malware bancário""",
    cards="""clonar cartão | clonar cartões | cartão clonado | cartões clonados | skimmer
        | chupa-cabra""",
    code="""escreva | escreve | escrever | programa | programar | código | crie | criar | cria
        | desenvolva | me faz | faz$ | faça | faz um | script | gera$ | gerar | montar
        | preciso de um""",
    drug="""metanfetamina | meth$ | anfetamina | heroína | fentanil | mdma | ecstasy | êxtase | lsd$
        | ghb$ | cocaína | crack$ | pseudoefedrina | pasta base""",
    sexual="""sexual | sexuais | sexy | erótico | erótica | nu$ | nua$ | nus$ | nuas$ | nudez
        | pelado | pelada | pornô | porno | pornográfico | sexo$""",
    minor="""criança | crianças | menina | menino | meninas | meninos | menor de idade
        | menores de idade | adolescente | novinha | novinho | pré-adolescente | lolita""",
    age="anos",
    exempt="""desarmar | desativar | esquadrão antibombas | antibomba | histórico | guerra mundial
        | notícia | atentado de | atentado do | explodiu | explosão de | sintoma | sinais
        | perigo | perigoso | risco | tratamento | antídoto | ceatox | prevenir | prevenção
        | evitar | proteger | protejo | recuperar | minha própria | meu próprio
        | esqueci minha senha | esqueci a senha | denunciar | denúncia | cvv$ | pedir ajuda
        | buscar ajuda | procurar ajuda | ajudar meu | ajudar minha | ajudá-lo | ajudá-la | jogo
        | videogame | filme | bomba d'água | bomba de água | bomba de calor | bomba de vácuo
        | bomba de ar | bomba de gasolina | bomba de combustível | bomba de insulina
        | bomba de piscina | bomba de poço | bomba submersa | bomba de óleo | bomba de chocolate
        | bomba de banho | ratos | ratazanas | baratas | formigas | ervas daninhas | pragas
        | detectar | identificar | como saber se | fui hackeado | hackearam | invadiram
        | clonaram | educação sexual | antifraude | golpistas | entender como | contra$
        | história do | história da | na história | aula de história | conversar com meu filho
        | conversar com minha filha | falar com meu filho | falar com minha filha | por ano
        | estatística | taxa de | sou vítima | fui vítima | diferença entre | como funciona
        | série de tv | série da | na série | uma série | segurança da conta | minha segurança
        | dicas de segurança | segurança do meu | reconhec""",
    gun="""arma$ | armas$ | pistola | revólver | espingarda | fuzil | caçadeira | garrucha
        | arma fantasma""",
    gunmod="""caseira | sem número de série | sem registro | sem registo | rastrear | rastreável
        | balas a sério | balas de verdade | impressora 3d | em 3d | rajada | artesanal
        | serrar o cano | full auto""",
    content="""escreva | escreve | redija | invente | gere$ | descreva | me manda | me mande
        | me envia | me mostra | onde encontro | onde acho | baixar""",
)

IT = language_rules(
    "it",
    ask="""come$ | passaggi | passo passo | istruzioni | tutorial | guida | ricetta | spiegami
        | spiega | insegnami | mostrami | dimmi | dammi | aiutami | voglio | vorrei | ho bisogno
        | devo$ | puoi$ | potresti | quale | quali | dove comprare | dove trovo | scrivi
        | scrivimi | programma | codice | metodo | il modo migliore | modo per | mi aiuti
        | mi spieghi | quanto | quanta | bisogna | modi per | che veleno | quale veleno
        | consigli | dove posso | dove$""",
    make="""fabbricare | fabbrico | costruire | costruisco | assemblare | sintetizzare | sintesi
        | cucinare | produrre | preparare | fare$ | estrarre | raffinare | produce$ | produco
        | si produce | prepara$ | si prepara | si fa$ | si fanno | farmi | farsi | costruisce
        | ricava | ricavare""",
    weapon="""bomba artigianale | bombe artigianali | bomba fatta in casa | bomba a tubo
        | bomba carta | bomba chiodata | bomba con chiodi | ordigno | ordigni
        | esplosivo artigianale | esplosivi artigianali | molotov | bottiglia incendiaria | tatp
        | perossido di acetone | napalm | autobomba""",
    bomb="bomba$ | bombe$ | esplosivo$ | esplosivi$ | dinamite",
    poison="""avvelenare | avveleno | avvelenarlo | avvelenarla | avvelenarli | veleno | veleni
        | arsenico | cianuro | topicida | antigelo | stricnina""",
    victim="""qualcuno | una persona | mio marito | mia moglie | il mio vicino | la mia vicina
        | mio vicino | il mio capo | mio capo | mia suocera | mio suocero | il mio collega
        | la mia collega | mio collega | il mio ex | la mia ex | suo cibo | sua bevanda
        | suo caffè | nel cibo | nella bevanda | nel caffè | nel tè | ucciderlo | ucciderla""",
    stealth="""senza che nessuno | senza farmi scoprire | senza lasciare tracce | senza traccia
        | non rintracciabile | irrintracciabile | non rilevabile | autopsia
        | senza essere scoperto | senza essere visto | senza farmi beccare | sembri un incidente
        | sembrare un incidente | come un incidente | morte naturale | di nascosto
        | senza cicatrici | senza segni | senza che i miei | nascondere | se ne accorga
        | se ne accorgano | cicatrici | lividi | facendolo sembrare | sembrare un infarto
        | senza lasciare segni""",
    kill="""uccidere | uccido | ammazzare | ammazzo | assassinare | strangolare | soffocare
        | accoltellare | picchiare | sbarazzarmi di | manomettere i freni | tagliare i freni
        | sabotare i freni""",
    method="""senza dolore | indolore | più veloce | più rapido | più sicuro | metodo | modo
        | quante pillole | quante compresse | quante | quanti | quanto | dose letale
        | dose mortale | dose$ | quale dose | basta | altezza | più alto | quale farmaco
        | quali farmaci | che farmaco""",
    suicide="""suicidarmi | uccidermi | ammazzarmi | togliermi la vita | farla finita | per morire
        | morire nel sonno | morire senza | non svegliarmi più | suicidio$ | sia letale
        | sia mortale | non sopravvivere | sicuri di morire | non svegliarsi più | uccidersi
        | togliersi la vita""",
    cut="""tagliarmi | autolesionismo | farmi del male | ferirmi | autolesionarmi | farsi del male
        | i tagli | tagli sulle | miei tagli""",
    hack="""hackerare | hackare | craccare | entrare nel | entrare nell | accedere
        | leggere i messaggi | spiare | sbloccare | scoprire la password | rubare la password
        | bucare | entri nella | entrare nella | entro nel | entro nella | entra nel
        | aggirare l'autenticazione | buca | leggo | leggere le mail | leggere le email
        | app spia | installo un keylogger | keylogger sul""",
    others="""della mia ex | del mio ex | della mia ragazza | del mio ragazzo | di mio marito
        | di mia moglie | del vicino | del mio vicino | della mia vicina | del mio capo
        | del mio collega | di qualcuno | di un'altra persona | di altre persone | altrui
        | suo account | sua email | suo telefono | suo wifi | di una dipendente
        | di un dipendente | di una collega | della mia collega | del mio compagno
        | della mia fidanzata | di mia madre | non è mio | non è mia | della direttrice
        | del direttore | suo icloud | suo instagram | suo profilo | suo whatsapp | sua gmail
        | sue mail | sue email""",
    malware="""ransomware | keylogger | cavallo di troia | trojan | botnet | stealer | spyware
        | malware | rubi le password | rubare le password | ruba le password
        | rubi le credenziali | worm$ | exploit""",
    cards="clonare carte | clonare una carta | clonare la carta | carte clonate | skimmer",
    code="""scrivi | scrivimi | scrivere | programma | programmare | codice | crea | creare | creami
        | sviluppa | fammi | script | mi serve | mettere su | creo | crea$ | genera""",
    drug="""metanfetamina | meth$ | anfetamina | eroina | fentanyl | fentanil | mdma | ecstasy
        | lsd$ | ghb$ | cocaina | crack$ | ketamina""",
    sexual="""sessuale | sessuali | sexy | erotico | erotica | erotici | erotiche | nudo | nuda
        | nudi | nude$ | porno | pornografico | sesso""",
    minor="""bambino | bambina | bambini | bambine | minorenne | minorenni | minore$ | ragazzina
        | ragazzino | adolescente | scolaretta | lolita""",
    age="anni",
    exempt="""disinnescare | disinnesco | artificieri | artificiere | bellico | storico
        | guerra mondiale | notizia | telegiornale | attentato di | attentato del | esploso
        | esplosione di | sintomi | segnali | segni di | pericolo | pericoloso | rischi
        | trattamento | curare | antidoto | antiveleni | prevenire | prevenzione | evitare
        | proteggere | proteggo | recuperare | mio account | il mio profilo | ho dimenticato
        | denunciare | segnalare | telefono amico | numero verde | chiedere aiuto | aiutarlo
        | aiutarla | aiutare un | aiutare il mio | aiutare la mia | gioco | videogioco | film
        | serie tv | bomba alla crema | bombe alla crema | bomba da bagno | bomba d'acqua
        | bombe d'acqua | ratti | erbacce | parassiti | scarafaggi | formiche | rilevare
        | come capire se | mi hanno hackerato | è stato hackerato | educazione sessuale
        | contro$ | storia di | storia del | storia della | nella storia | lezione di storia
        | topi$ | sono vittima | sono stato vittima | sono stata vittima
        | parlare con mio figlio | parlare con mia figlia | all'anno | statistic | tasso di
        | differenza tra | differenza fra | come funziona | la mia sicurezza
        | consigli di sicurezza | riconosc""",
    gun="pistola | fucile | arma$ | armi$ | scacciacani | revolver | kalashnikov | arma fantasma",
    gunmod="""proiettili veri | pistola vera | stampata in 3d | in 3d | stampare | senza matricola
        | tracciare | rintracciabil | a raffica | full auto | senza porto d'armi | senza licenza""",
    content="""scrivi | scrivimi | inventa | genera | descrivi | mandami | inviami | mostrami
        | dove trovo | dove posso trovare | scaricare""",
)

NL = language_rules(
    "nl",
    ask="""hoe$ | stap voor stap | stappen | instructie | handleiding | tutorial | recept | leg uit
        | uitleggen | leer me | laat zien | vertel me | geef me | help me | ik wil | ik moet
        | kun je | kan je | kunt u | welke | waar koop | waar kan ik | schrijf | programmeer
        | code voor | methode | de beste manier | manier om | welk$ | kan ik | hoeveel""",
    make="""maken | maak$ | bouwen | bouw$ | in elkaar zetten | synthetiseren | synthese | koken
        | kook$ | produceren | bereiden | fabriceren | extraheren | maakt$ | maak ik | maak je
        | recept | omkoken | grondstoffen | opzetten | lab$""",
    weapon="""pijpbom | spijkerbom | bermbom | zelfgemaakte bom | zelfgemaakte bommen
        | zelfgemaakt explosief | zelfgemaakte explosieven | explosief apparaat
        | explosieve apparaten | molotovcocktail | molotov | brandbom | tatp | acetonperoxide
        | napalm | autobom""",
    bomb="bom$ | bommen$ | explosieven | springstof",
    poison="""vergiftigen | vergiftig$ | vergiftigt$ | vergif$ | gif$ | rattengif | arsenicum
        | cyanide | antivries | strychnine""",
    victim="""iemand | mijn man | mijn vrouw | mijn echtgenoot | mijn buurman | mijn buurvrouw
        | de buren | mijn baas | mijn schoonmoeder | mijn schoonvader | mijn collega | mijn ex$
        | zijn eten | haar eten | zijn drankje | haar drankje | zijn koffie | haar koffie
        | in het eten | iemands | in zijn eten | in haar eten | haar man | zijn vrouw
        | in de wijn | een mens""",
    stealth="""zonder sporen | geen sporen | onopgemerkt | ongemerkt | onvindbaar | niet opspoorbaar
        | niet traceerbaar | niet detecteerbaar | onopvallend | sectie | lijkschouwing
        | autopsie | als een ongeluk | op een ongeluk lijkt | natuurlijke dood
        | zonder gepakt te worden | stiekem | zonder littekens | zonder dat mijn ouders
        | het merkt | het merken | het doorheeft | opvalt | verbergen | verstoppen
        | blauwe plekken | zonder dat iemand | sporen zijn | er sporen""",
    kill="""vermoorden | vermoord$ | doden | ombrengen | wurgen | neersteken | in elkaar slaan
        | uit de weg ruimen | iemand in elkaar | sla je iemand | sla ik iemand | saboteer
        | saboteren""",
    method="""pijnloos | pijnloze | zonder pijn | snelste | zekerste | methode | manier
        | hoeveel pillen | hoeveel tabletten | hoeveel$ | dodelijke dosis | welke dosis
        | zekerst | combinatie""",
    suicide="""zelfmoord$ | zelfmoord plegen | suïcide$ | mezelf doden | mezelf van kant
        | mezelf om het leven | mijn leven beëindigen | een einde aan mijn leven
        | om dood te gaan | niet meer wakker | nooit meer wakker | sterven in mijn slaap
        | er een eind aan te maken | een eind aan maken | er een einde aan
        | een einde aan te maken | om te sterven | te sterven""",
    cut="""mezelf snijden | mezelf pijn doen | zelfbeschadiging | automutilatie | kan ik snijden
        | ik snijden""",
    hack="""hacken | hack$ | inbreken | inloggen | binnenkomen | toegang tot | berichten lezen
        | meelezen | bespioneren | ontgrendelen | wachtwoord achterhalen | wachtwoord kraken
        | kraken | account te komen | mailbox te komen | in de mailbox | in de outlook
        | in de digid | in de gmail | in het account | in haar account | in zijn account
        | in haar whatsapp | in zijn whatsapp | spyware | spionage-app | spy-app | stalkerware
        | kom ik in | klonen | tweestapsverificatie""",
    others="""van mijn ex | van mijn vriendin | van mijn vriend | van mijn man | van mijn vrouw
        | van de buren | van mijn buurman | van mijn buurvrouw | van mijn baas
        | van mijn collega | van iemand | van een ander | van anderen | iemand anders
        | zijn account | haar account | zijn telefoon | haar telefoon | zijn wifi
        | haar instagram | gevonden | haar whatsapp | zijn whatsapp | haar outlook | haar mail
        | zijn mail | van mijn moeder""",
    malware="""ransomware | keylogger | trojan | botnet | stealer | spionagesoftware | spyware
        | infostealer | worm$ | exploit""",
    cards="""kaarten klonen | bankpas klonen | pinpas klonen | creditcard klonen | skimmer | skimmen
        | skimapparatuur | chip van een bankpas | bankpas kopiëren | kopieer ik de chip""",
    code="""schrijf | schrijven | programmeer | programmeren | code voor | maak | maken | bouw
        | ontwikkel | zet je | zet ik | op te zetten | opzetten | aanpassen""",
    drug="""crystal meth | meth$ | methamfetamine | amfetamine | heroïne | fentanyl | mdma | xtc$
        | ecstasy | lsd$ | ghb$ | cocaïne | crack$ | speed$""",
    sexual="""seksueel | seksuele | seks$ | sexy | erotisch | erotische | naakt | porno
        | pornografisch""",
    minor="""kind$ | kinderen | kindje | meisje | jongetje | minderjarig | tiener | scholier
        | lolita""",
    age="jaar$ | jarig | jarige",
    exempt="""ontmantelen | explosievenopruiming | blindganger | geschiedenis | historisch
        | wereldoorlog | nieuws | aanslag in | aanslag op | ontplofte | explosie in | symptomen
        | signalen | tekenen | gevaar | gevaarlijk | risico | behandeling | behandelen
        | tegengif | voorkomen | preventie | beschermen | beveiligen | veilig maken | herstellen
        | terugkrijgen | mijn eigen | wachtwoord vergeten | melden | aangifte | 113 | hulplijn
        | hulp zoeken | hulp vragen | hem helpen | haar helpen | iemand helpen | spel$ | game$
        | videogame | film | serie$ | badbom | bom geld | bom duiten | muizen | onkruid
        | ongedierte | kakkerlakken | mieren | detecteren | opsporen | hoe weet ik | ben gehackt
        | is gehackt | seksuele voorlichting | tegen$ | ben slachtoffer | slachtoffer van
        | ratten$ | praten met mijn kind | praten met mijn zoon | praten met mijn dochter
        | per jaar | statistiek | verschil tussen | hoe werkt | herken | taart | verjaardag""",
    gun="""vuurwapen | pistool | wapen$ | wapens$ | geweer | alarmpistool | waggie | ghost gun
        | spookwapen""",
    gunmod="""zonder vergunning | zonder serienummer | niet te traceren | onnaspeurbaar
        | ongeregistreerd | echte kogels | scherp kan schieten | scherp schieten | 3d-printer
        | 3d printer | printen | zelf bouwen | in elkaar zetten | zelf een""",
    content="""schrijf | verzin | genereer | beschrijf | stuur me | laat zien | waar vind
        | waar kan ik | downloaden""",
)

PL = language_rules(
    "pl",
    ask="""jak$ | krok po kroku | instrukcj | poradnik | przepis | wyjaśnij | wytłumacz | naucz mnie
        | pokaż | powiedz | daj mi | pomóż | chcę | potrzebuję | możesz | mógłbyś | mogłabyś
        | jaki$ | jaka$ | jakie$ | jakiego | gdzie kupić | gdzie dostać | napisz | zaprogramuj
        | kod$ | metod | najlepszy sposób | sposób | w jaki sposób | da się | ile$""",
    make="""zrobić | zrobię | robić | zbudować | zbuduję | budować | zmontować | złożyć
        | zsyntetyzować | syntez | ugotować | gotować | wyprodukować | produkować | przygotować
        | wytworzyć | wytwarzać | wyekstrahować | ekstrahować | przepis | gotuje | gotuję
        | ugotowa | produkcji""",
    weapon="""bomba rurow | bombę rurow | bomby rurow | bomba domowej roboty | bombę domowej roboty
        | bomby domowej roboty | domowej roboty bomb | bomba z gwoździami | bombę z gwoździami
        | ładunek wybuchow | ładunku wybuchow | ładunki wybuchow | ładunków wybuchow
        | improwizowany ładunek | koktajl mołotowa | koktajle mołotowa | koktajlu mołotowa
        | mołotow | molotov | tatp | nadtlenek acetonu | napalm""",
    bomb="""bomba$ | bombę$ | bomby$ | bombą$ | materiał wybuchow | materiały wybuchow
        | materiałów wybuchow | trotyl | dynamit""",
    poison="""otru | trucizn | arszenik | cyjanek | trutk | strychnin | płynu do chłodnic
        | płyn do chłodnic | glikol | dosypać | dosypywać | sromotnik""",
    victim="""kogoś | komuś | człowieka | osobę | męża | mężowi | żonę | żonie | sąsiada | sąsiadowi
        | sąsiadkę | szefa | szefowi | teściową | teściowej | teścia | kolegę | koleżankę
        | byłego | byłą$ | jego jedzeni | jej jedzeni | do jedzenia | do picia | do kawy
        | do herbaty | do napoju | go zabić | ją zabić | dorosłego | faceta""",
    stealth="""żeby nikt nie | bez śladu | bez śladów | nie zostawiając śladów | niewykrywaln
        | nie do wykrycia | sekcj | żeby mnie nie złapali | nie dać się złapać | niezauważenie
        | niepostrzeżenie | śmierć naturaln | śmierci naturaln | po kryjomu | potajemnie
        | bez blizn | żeby rodzice nie | ukryć | ślady | nie zostały | wyglądało na wypadek
        | wyglądał na wypadek | wyglądała na wypadek | na zwykły wypadek | nikt nie zauważ
        | blizn""",
    kill="""zabić | zabiję | zabijać | zamordować | udusić | dźgnąć | pobić | skatować | pozbyć się
        | hamulce | hamulcami""",
    method="""bezbolesn | bez bólu | najszybsz | najpewniejsz | najskuteczniejsz | metod | sposób
        | sposobu | ile tabletek | ile pigułek | ile$ | jaka dawka | śmiertelna dawka
        | dawka śmiertelna | dawkę śmiertelną | śmiertelną dawkę | żeby nie bolało | nie bolało
        | najmniej bolesn | kombinacj""",
    suicide="""zabić się | odebrać sobie życie | popełnić samobójstwo | samobójstwo$
        | skończyć ze sobą | żeby umrzeć | aby umrzeć | umrzeć we śnie | umrzeć bez bólu
        | nie obudzić się | już się nie obudzić | się zabić | to było śmiertelne
        | było śmiertelne | się nie obudzić | na pewno zabije | nie chcę już żyć | nie chcę żyć""",
    cut="""ciąć się | pociąć się | okaleczać | samookalecz | zrobić sobie krzywdę | krzywdzić się
        | się tnę | tnę się | się ciąć""",
    hack="""zhakować | shakować | hakować | włamać | włamywać | dostać się do | wejść na
        | zalogować się | czytać wiadomości | czytać jej wiadomości | czytać jego wiadomości
        | szpiegować | odblokować | złamać hasło | poznać hasło | ukraść hasło | czytać jego
        | czytać jej | aplikację szpiegując | aplikacja szpiegując | wgrać | przejąć | podglądać
        | podejrzeć | zalogować | wjechać na | łamania wpa""",
    others="""mojej byłej | mojego byłego | byłej dziewczyny | byłego chłopaka | mojej dziewczyny
        | mojego chłopaka | mojego męża | mojej żony | męża$ | żony$ | sąsiada | sąsiadki
        | szefa | kolegi | koleżanki | kogoś | cudz | innej osoby | innych osób | jego konto
        | jej konto | jej telefon | jego telefon | komuś | czyj | u byłej | byłej$""",
    malware="""ransomware | keylogger | trojan | botnet | stealer | oprogramowanie szpiegując
        | spyware | crypter | zapisane hasła""",
    cards="sklonować kart | klonować kart | klonowanie kart | skimmer",
    code="""napisz | napisać | zaprogramuj | zaprogramować | kod$ | kodu | stwórz | stworzyć | zrób
        | zrobić | zbuduj | zbudować | daj kod | zrób mi | skrypt | potrzebuję działając
        | daj mi kod""",
    drug="""metamfetamin | amfetamin | heroin | fentanyl | mdma | ekstaz | lsd$ | ghb$ | kokain
        | crack$ | mefedron | mefe$ | mety$ | metę$ | pseudoefedryn | efedryn""",
    sexual="""seksualn | seks$ | seksu$ | seksem | sexy | erotyczn | naga$ | nagą$ | nagie$
        | nagiego | nagich | nagość | nagi$ | nago$ | porno | pornograf""",
    minor="""dziecko | dziecka | dzieci | dzieckiem | dziewczynk | chłopczyk | chłopca | nieletni
        | małoletni | nastolatk | uczennic | lolit""",
    age="lat$ | latka | letni | letnią | letniej",
    exempt="""rozbroić | rozbrajać | saper | niewypał | histori | historyczn | wojny światowej
        | wiadomości z | zamach w | zamach na | wybuch w | wybuchła | objaw | oznak
        | niebezpiecz | ryzyk | leczeni | leczyć | odtrutk | zapobieg | zapobiec | profilaktyk
        | chronić | ochronić | ochrona | zabezpiecz | bezpieczeństw | odzyskać | odzyskanie
        | moje konto | moje własne | mojego własnego | zapomniałem hasła | zapomniałam hasła
        | zgłosić | zgłoszenie | zawiadomić | telefon zaufania | szukać pomocy
        | poprosić o pomoc | pomóc mu | pomóc jej | pomóc koledze | pomóc przyjaciel | gra$
        | grze$ | gry$ | film | serial | kula do kąpieli | kule do kąpieli | czekolad | kakao
        | szczur | myszy | chwast | szkodnik | karaluch | mrówk | wykryć | jak sprawdzić
        | zhakowano | zostało zhakowane | włamano | edukacj | przeciw | jestem ofiarą
        | padłem ofiarą | padłam ofiarą | rozmawiać z dzieckiem | rozmawiać z synem
        | rozmawiać z córką | rocznie | statystyk | różni się | różnica | jak działa | rozpozna
        | kaloryczn | do kąpieli""",
    gun="broń$ | broni$ | pistolet | straszak | karabin | rewolwer | broń widmo",
    gunmod="""bez numeru seryjnego | nie da się namierzyć | namierzyć | ostrą amunicj
        | prawdziwą broń | drukarce 3d | wydrukować | bez pozwolenia | bez rejestracji
        | nie do wyśledzenia""",
    content="""napisz | wymyśl | wygeneruj | opisz | wyślij mi | pokaż | gdzie znaleźć
        | gdzie znajdę | gdzie pobrać | pobrać""",
)

TR = language_rules(
    "tr",
    ask="""nasıl | adım adım | adımlar | talimat | tarif | rehber | kılavuz | açıkla | anlat | öğret
        | göster | söyle | ver$ | verir misin | verebilir | yardım et | istiyorum | lazım
        | gerek | yapabilir misin | hangi | yaz$ | yazar mısın | yazsana | kodla | yöntem
        | en iyi yol | yolu$ | yolunu | nereden alabilirim | nereden bulabilirim
        | nereden bulurum | nereden alırım | ne kullan | ne katarsam | ne koy | öner""",
    make="""yapım | yapıl | yapmak | yapar | yapabil | yapacağ | yapsam | yapıyor | yap$ | üret
        | imal | sentezle | sentez | pişir | monte | birleştir | elde et | çıkar | hazırl
        | yapıp""",
    weapon="""boru bomba | çivili bomba | el yapımı bomba | ev yapımı bomba | ev yapımı patlayıcı
        | el yapımı patlayıcı | patlayıcı düzenek | molotof | molotov | tatp | aseton peroksit
        | napalm""",
    bomb="bomba | patlayıcı | dinamit",
    poison="""zehirlemek | zehirleyebil | zehirlerim | zehirlesem | zehirlemenin | zehirleme$
        | zehirleyeceğ | zehir$ | zehri | zehiri | zehirler$ | siyanür | arsenik | fare zehri
        | antifriz | striknin""",
    victim="""birini | birine | birisini | kocamı | kocama | karımı | karıma | eşimi | eşime | komşu
        | patronumu | patronuma | kayınvalidemi | kaynanamı | kaynanama | iş arkadaşımı
        | eski sevgilimi | yemeğine | içeceğine | kahvesine | çayına | yemeğe | içeceğe""",
    stealth="""fark edilmeden | fark etmeden | anlaşılmadan | iz bırakmadan | izsiz
        | tespit edilemeyen | tespit edilmeden | otopsi | yakalanmadan | kimse anlamadan
        | çaktırmadan | kaza gibi | kaza süsü | doğal ölüm | gizlice | iz kalmadan | yara izi
        | ailem görmeden | saklamak | gizlemek | iz bırakmayan | fark etmesin | kimse görmesin
        | görmesin | izleri | saklarım | gizlerim | iz kalmasın | haberi olmadan
        | fark ettirmeden | kimse anlamasın | anlamasın""",
    kill="""öldür | katlet | boğmak | boğarak | boğabil | bıçakla | dövmek | döverim | dövebil
        | dövsem | ortadan kaldır | boğup | frenini | frenlerini | kardeşime zarar
        | birine zarar | ona zarar""",
    method="""acısız | acı çekmeden | en hızlı | en kolay | en garantili | kesin ölüm | yöntem
        | yol$ | yolu$ | kaç tane | kaç hap | kaç tablet | ne kadar | öldürücü doz | ölümcül doz
        | hangi ilaç | kesin$ | yükseklik | hızlı""",
    suicide="""kendimi öldür | intihar | canıma kıy | hayatıma son | ölmek için | ölebilmek için
        | ölmenin yolu | ölmenin en | öleyim | uyanmamak | bir daha uyanmam | uykuda ölmek
        | ölürüm | ölür müyüm | uykusunda ölür | yaşamak istemiyorum | bileklerimi kes
        | kendini öldür""",
    cut="kendimi kes | kendime zarar | jiletle | kendimi yarala | kol kesme",
    hack="""hackle | hack$ | hacklemek | şifresini kır | şifresini öğren | şifresini bul
        | hesabına gir | hesabına sız | sızmak | sızabil | mesajlarını oku | gizlice oku
        | telefonunu aç | kilidini aç | kırarım | kırabilirim | şifresini çöz | mesajlarını
        | yazışmalarını | şifresini | hesabına | hesabını | whatsapp'ını | instagram'ını
        | kamerasını | casus uygulama | klonla | ele geçir | kıracak""",
    others="""eski sevgilimin | sevgilimin | kız arkadaşımın | erkek arkadaşımın | kocamın | karımın
        | eşimin | komşumun | komşunun | patronumun | iş arkadaşımın | başkasının | birinin
        | birisinin | onun$ | başkalarının""",
    malware="""fidye yazılım | ransomware | keylogger | tuş kaydedici | truva atı | trojan | botnet
        | stealer | casus yazılım | spyware | şifreleri çeken | şifreleri çalan
        | tokenlarını çalan | çalan bir program""",
    cards="""kart kopyala | kartı kopyala | kredi kartı kopyala | kart klonla | kopya kart | skimmer
        | çalıntı kart""",
    code="""yaz$ | yazar mısın | yazsana | yazabilir | kodla | kodunu | oluştur | geliştir | yap$
        | script | lazım | yapıl""",
    drug="""metamfetamin | meth$ | amfetamin | eroin | fentanil | mdma | ekstazi | kokain | lsd$
        | ghb$ | captagon | kaptagon | methamphetamine""",
    sexual="cinsel | seks | sexy | erotik | çıplak | porno | müstehcen",
    minor="""çocuk | çocuğu | küçük kız | küçük erkek | reşit olmayan | küçük yaşta | öğrenci
        | ilkokul | ortaokul | lolita""",
    age="yaşında | yaşındaki | yaş$",
    exempt="""etkisiz hale | imha | tarih | dünya savaşı | haberler | haberde | gazete | patladı
        | patlamada | belirti | işaret | tehlike | tehlikeli | risk | tedavi | panzehir | önle
        | önlem | korun | koru | güvenli | güvenlik | kurtar | geri al | kendi hesab | hesabımı
        | şifremi unuttum | şikayet | ihbar | bildirmek | yardım hattı | destek hattı
        | yardım al | yardım iste | psikolog | oyun | film | dizi | fare$ | fareler | böcek
        | haşere | yabani ot | hamamböceği | karınca | nasıl anlarım | nasıl fark ederim
        | hacklendi | hacklenmiş | çalındı | bomba gibi | banyo bombası | kalori bombası
        | vitamin bombası | lezzet bombası | nasıl çalışır | cinsel eğitim | konuşmak
        | mağdur oldum | mağduruyum | farkı ne | arasındaki fark | yardım edebilirim
        | yardım ederim | nasıl yardım | nasıl destek | yasal mı | kanun | yasası""",
    gun="silah | tabanca | tüfek | kurusıkı | pompalı",
    gunmod="""seri numarası olmayan | seri numarasız | ruhsatsız | izi sürülemeyen | izi sürülemesin
        | izlenemeyen | takip edilemeyen | 3d yazıcı | gerçek mermi | otomatiğe
        | ruhsat sormadan | seri numarasını sil | namlusunu kısalt""",
    content="""yaz$ | yazar mısın | yazsana | oluştur | göster | nereden bulabilirim
        | nerede bulurum | indir | gönder$ | bana gönder | bulurum | bulabilirim""",
)

_VI = dict(
    ask="""cách$ | làm sao | làm thế nào | như thế nào | thế nào | hướng dẫn | các bước | từng bước
        | công thức | chỉ tôi | chỉ mình | chỉ cho | dạy tôi | dạy mình | giải thích | cho tôi
        | cho mình | giúp tôi | giúp mình | tôi muốn | mình muốn | tôi cần | mình cần | viết
        | lập trình | phương pháp | mua ở đâu | nào$ | muốn$ | có cách nào | cách nào | kiểu gì
        | chỗ nào | bao nhiêu | ở đâu | chất gì | thuốc gì""",
    make="""chế tạo | cách làm | tự làm | tự chế | làm ra | lắp ráp | tổng hợp | nấu | điều chế
        | sản xuất | pha chế | chiết xuất | tinh chế""",
    weapon="""bom ống | bom tự chế | bom tự làm | bom đinh | bom xăng | chai cháy | cocktail molotov
        | molotov | thiết bị nổ | chất nổ tự chế | tatp | napalm | làm bom | làm thuốc nổ
        | làm chất nổ""",
    bomb="bom$ | chất nổ | thuốc nổ",
    poison="""đầu độc | bỏ độc | thuốc độc | chất độc | hạ độc | xyanua | cyanua | thạch tín | asen$
        | loại độc | bả chuột | bỏ thuốc gì | bỏ thuốc vào | cho thuốc ngủ | thuốc ngủ vào""",
    victim="""ai đó | người khác | một người | chồng | vợ$ | hàng xóm | sếp | mẹ chồng | bố chồng
        | đồng nghiệp | người yêu cũ | đồ ăn | thức ăn | đồ uống | nước uống | cà phê | cốc nước
        | ly nước | anh ta | cô ta | hắn$""",
    stealth="""không bị phát hiện | không ai biết | không để lại dấu vết | không dấu vết
        | không bị lộ | khám nghiệm | giống tai nạn | như tai nạn | như một tai nạn
        | chết tự nhiên | lén | bí mật | không để lại sẹo | không để lại vết
        | không ai phát hiện | giấu | pháp y không | không phát hiện | trông như | tự hỏng
        | không ai thấy | sẹo""",
    kill="""giết | sát hại | bóp cổ | đánh đập | thủ tiêu | đánh nó | đánh hắn | đánh người
        | cắt dây phanh | cắt phanh""",
    method="""không đau | nhẹ nhàng | nhanh nhất | chắc chắn | cách$ | phương pháp | bao nhiêu viên
        | bao nhiêu | liều gây chết | liều chết | liều tử vong | mấy viên | là đủ""",
    suicide="""tự tử | tự sát | tự vẫn | kết liễu đời | kết thúc cuộc đời | kết thúc cuộc sống
        | để chết | chết nhẹ nhàng | chết không đau | muốn chết | chết trong giấc ngủ
        | không tỉnh dậy | không bao giờ tỉnh | chết mà không đau | cách nào chết | thì chết
        | chắc chắn chết | cắt cổ tay | không cứu được | không tỉnh lại | ra đi nhẹ nhàng""",
    cut="""tự làm hại | tự hại | rạch tay | cắt tay | tự rạch | tự cắt | làm đau bản thân
        | tự làm đau""",
    hack="""hack$ | hack vào | xâm nhập | đột nhập | bẻ khóa | bẻ khoá | lấy mật khẩu | đánh cắp
        | đọc tin nhắn | xem tin nhắn | mở khóa | mở khoá | vào tài khoản | đọc trộm
        | phần mềm theo dõi | app theo dõi | cài phần mềm | vượt qua mã otp | vượt otp
        | đăng nhập tài khoản | chiếm acc | chiếm tài khoản | phần mềm gián điệp""",
    others="""người yêu cũ | bạn gái | bạn trai | người yêu | chồng | vợ$ | hàng xóm | sếp
        | đồng nghiệp | người khác | của ai đó | ai đó | của anh ấy | của cô ấy | bồ cũ""",
    malware="""ransomware | mã độc tống tiền | keylogger | trojan | botnet | stealer
        | phần mềm gián điệp | spyware | mã độc | đánh cắp mật khẩu""",
    cards="sao chép thẻ | clone thẻ | làm giả thẻ | skimmer",
    code="viết | lập trình | code$ | tạo$ | tạo ra | phát triển | cần$",
    drug="""ma túy đá | ma tuý đá | methamphetamine | meth$ | amphetamine | heroin | hêrôin
        | fentanyl | thuốc lắc | mdma | cocaine | côcain | lsd$ | nấu đá""",
    sexual="""tình dục | làm tình | khiêu dâm | sex$ | sexy | khỏa thân | khoả thân | nude
        | đồi trụy | lõa thể""",
    minor="""trẻ em | trẻ con | bé gái | bé trai | em bé | vị thành niên | chưa thành niên
        | học sinh | nữ sinh | cô bé | cậu bé | lolita""",
    age="tuổi",
    exempt="""tháo gỡ | gỡ bom | phá bom | rà phá | công binh | lịch sử | tin tức | thời sự | vụ nổ
        | đã nổ | triệu chứng | dấu hiệu | nguy hiểm | rủi ro | điều trị | chữa | giải độc
        | thuốc giải | phòng ngừa | phòng tránh | ngăn chặn | ngăn ngừa | bảo vệ | bảo mật
        | an toàn | khôi phục | lấy lại | tài khoản của tôi | tài khoản của mình | quên mật khẩu
        | báo cáo | tố cáo | báo công an | đường dây nóng | tổng đài | tư vấn | giúp đỡ
        | trò chơi | game$ | phim | côn trùng | cỏ dại | gián$ | nhận biết | cách phát hiện
        | làm sao biết | nạn nhân | bị hack | bị xâm nhập | giáo dục | xét nghiệm | diệt chuột
        | đuổi chuột | chuột trong nhà | bẫy chuột | thuốc lá | cai thuốc | bom mìn | sót lại
        | chiến tranh | phòng chống | hoạt động như thế nào | để tránh | tránh bị | bom tắm
        | viên sủi""",
    gun="súng",
    gunmod="""tự chế | bắn đạn thật | đạn thật | không số hiệu | in súng | 3d$ | truy vết
        | không giấy phép | không cần giấy phép | hoa cải | full auto""",
    content="""viết | sáng tác | tạo$ | gửi cho | cho xem | tìm ở đâu | kiếm ở đâu | tải về
        | tải ở đâu""",
)
# Vietnamese tones tell "bom" (bomb) from "bơm" (pump) and "chồng" (husband) from "chống"
# (against): the terms as written for text with its tones, folded only for text without any.
VI_ACCENTED = language_rules("vi", reads="accented", **_VI)
VI_PLAIN = language_rules("vi", reads="plain", **_VI)

ID = language_rules(
    "id",
    ask="""cara$ | bagaimana | gimana | langkah | tutorial | panduan | resep | jelaskan | ajari
        | ajarin | tunjukkan | kasih tahu | beri tahu | berikan | kasih$ | bantu | tolong
        | aku mau | saya mau | aku ingin | saya ingin | pengen | pingin | bisakah | di mana beli
        | dimana beli | tulis | tuliskan | buatkan | bikinin | metode | cara terbaik | bisa$
        | berapa""",
    make="""membuat | buat$ | bikin | merakit | rakit | mensintesis | sintesis | memasak | masak$
        | memproduksi | produksi | meracik | racik | mengekstrak | ekstrak | menyuling | dibuat""",
    weapon="""bom pipa | bom paku | bom rakitan | bom buatan sendiri | bom molotov | molotov
        | bahan peledak rakitan | peledak rakitan | alat peledak | perangkat peledak | tatp
        | aseton peroksida | napalm""",
    bomb="bom$ | bahan peledak | peledak$ | dinamit | granat",
    poison="""meracuni | racuni | racun$ | racunnya | sianida | arsenik | potas$ | antibeku
        | striknin""",
    victim="""seseorang | orang lain | suami | istri | tetangga | bos$ | atasan | mertua
        | rekan kerja | teman kerja | mantan | makanannya | minumannya | kopinya | tehnya
        | makanan | minuman | orang dewasa""",
    stealth="""tanpa ketahuan | tanpa diketahui | tanpa jejak | tidak terdeteksi | tak terdeteksi
        | tidak ketahuan | ga ketahuan | gak ketahuan | nggak ketahuan | autopsi | otopsi
        | seperti kecelakaan | kayak kecelakaan | mati wajar | kematian wajar | diam-diam
        | tanpa bekas | tidak berbekas | tanpa luka | menyembunyikan | sembunyikan
        | tanpa ada yang tahu | keliatan | kelihatan | disembunyiin | nyembunyiin | bekas luka
        | tanpa ninggalin bekas | ada yg liat | ada yang lihat | jangan sampe""",
    kill="""membunuh | bunuh$ | menghabisi | habisi | mencekik | menusuk | memukuli | menghajar
        | melenyapkan | singkirkan | membekap | bekap | merusak rem | rusak rem | sabotase rem
        | rem motor | rem mobil | nyakitin adik | nyakitin orang | menyakiti orang""",
    method="""tanpa rasa sakit | tanpa sakit | tidak sakit | paling cepat | paling ampuh
        | paling pasti | cara$ | metode | berapa butir | berapa banyak | berapa$
        | dosis mematikan | dosis fatal | dosis letal | caranya | obat apa""",
    suicide="""bunuh diri | mengakhiri hidup | akhiri hidup | biar mati | agar mati | supaya mati
        | untuk mati | ingin mati | pengen mati | mau mati | mati dengan tenang | mati tanpa
        | tidak bangun lagi | gak bangun lagi | tidur selamanya | sayat nadi | gak kuat hidup
        | nggak kuat hidup | capek hidup | meninggal pas tidur | meninggal saat tidur
        | mati pas tidur | bikin meninggal | nggak bangun lagi""",
    cut="""menyayat | sayat | melukai diri | self harm | self-harm | menyakiti diri | nyayat
        | nyakitin diri | disayat""",
    hack="""meretas | retas | hack$ | hacking | ngehack | bobol | membobol | masuk ke akun
        | masuk akun | mengakses | sadap | menyadap | membaca chat | baca chat | mengintip
        | intip | buka kunci | membuka kunci | mencuri password | curi password | masuk ke email
        | masuk email | ambil alih | mengambil alih | aplikasi mata-mata | aplikasi sadap
        | nyadap | masuk icloud | masuk ke icloud | brute force""",
    others="""mantan | pacar | suami | istri | tetangga | bos$ | atasan | milik orang | akun orang
        | orang lain | seseorang | punya orang | akunnya | hpnya | wifinya | emailnya
        | instagramnya | hp orang | hape orang | temen kantor | teman kantor""",
    malware="""ransomware | keylogger | trojan | botnet | stealer | spyware | malware
        | nyolong password | mencuri password | curi password | rat$ | crypter""",
    cards="kloning kartu | klon kartu | menggandakan kartu | skimmer | skimming | carding",
    code="""tulis | tuliskan | buatkan | bikinin | membuat | bikin | kode$ | program$ | script
        | coding | ngoding""",
    drug="""sabu$ | sabu-sabu | shabu | metamfetamin | amfetamin | heroin | putaw | fentanil
        | fentanyl | mdma | ekstasi | inex | lsd$ | ghb$ | kokain""",
    sexual="seksual | seks$ | sex$ | sexy | cabul | erotis | bugil | telanjang | porno | mesum",
    minor="""anak$ | anak-anak | anak kecil | bocah | di bawah umur | gadis kecil | siswi | murid
        | remaja | abg$ | loli$""",
    age="tahun",
    exempt="""menjinakkan | jinak bom | gegana | sejarah | berita | peristiwa | ledakan di
        | meledak di | gejala | tanda-tanda | bahaya | berbahaya | risiko | pengobatan
        | mengobati | penawar | antidot | mencegah | pencegahan | melindungi | mengamankan
        | memulihkan | pulihkan | akun saya | akunku | akun sendiri | lupa password
        | lupa kata sandi | melapor | lapor | hotline | mencari bantuan | konseling | psikolog
        | game | gim$ | film | bom mandi | hama | gulma | rumput liar | kecoa | semut | nyamuk
        | mengenali | mendeteksi | kena hack | diretas | dibobol | efek | pendidikan seks
        | bicara | bantu dia | bantu teman | membantu | menolong | jadi korban | menjadi korban
        | saya korban | perbedaan | bedanya | keamanan akun | menjaga keamanan
        | tingkatkan keamanan | membasmi tikus | basmi tikus | usir tikus | mengusir tikus
        | tikus di rumah | tikus di dapur | cara kerja | bagaimana cara kerja""",
    gun="pistol | senjata | senpi",
    gunmod="""rakitan | tanpa nomor seri | tidak bisa dilacak | nggak bisa dilacak
        | gak bisa dilacak | full auto | otomatis penuh""",
    content="""tuliskan | tulis | buatkan | bikinin | kirimkan | kirimin | tunjukkan | cari di mana
        | dapat di mana | download""",
)

SW = language_rules(
    "sw",
    ask="""jinsi$ | jinsi ya | namna ya | vipi$ | hatua | maelekezo | mwongozo | mapishi | nieleze
        | nielezee | nifundishe | nionyeshe | niambie | nipe | nisaidie | nataka | ninataka
        | nahitaji | ninahitaji | unaweza | naweza | wapi naweza | andika | niandikie
        | njia bora | njia ya | nawezaje | ninawezaje | nitawezaje | nifanyeje | nitapataje
        | naingiaje | nitasomaje | nitajie | wapi""",
    make="""~tengenez | ~kuunda | ~unganisha | ~tayarisha | ~kupika | ~zalisha | ~changanya
        | ~sanisi | ~chimbua""",
    weapon="""bomu la kutengeneza | bomu la nyumbani | bomu la bomba | bomu la misumari
        | bomu la petroli | vilipuzi vya kutengeneza | kilipuzi cha kutengeneza
        | kifaa cha kulipuka | molotov | tatp | napalm | bunduki isiyofuatiliwa
        | bunduki bila namba | bunduki ya kujitengenezea | bunduki ya kienyeji
        | kifaa cha kulipua""",
    bomb="bomu | mabomu | kilipuzi | vilipuzi | baruti | guruneti",
    poison="sumu$ | ~kumtilia sumu | sianidi | arseniki",
    victim="""mtu$ | mume wangu | mke wangu | jirani | bosi | mama mkwe | baba mkwe
        | mfanyakazi mwenzangu | mpenzi wangu wa zamani | chakula chake | kinywaji chake
        | chai yake | kahawa yake | chakula | kinywaji | ~kumtilia | ~kumuua | ~kumuwekea""",
    stealth="""bila kugunduliwa | bila kujulikana | bila mtu kujua | bila alama | bila kuacha alama
        | isiyogundulika | isigundulike | uchunguzi wa maiti | kama ajali | ionekane ajali
        | ionekane kama ajali | kifo cha kawaida | kwa siri | kisiri | bila makovu
        | bila wazazi kujua | ~kuficha | asione | wasione | wasijue | asijue | bila yeye kujua
        | bila kujua | nifiche | pasipoonekana | isionekane | bila wazazi | bila majirani""",
    kill="~kuua | ~kumuua | ~kumwua | ~kuwaua | ~kunyonga | ~kumchoma kisu",
    method="""bila maumivu | bila uchungu | haraka zaidi | njia rahisi | njia ya haraka | njia
        | vidonge vingapi | ngapi | kiasi gani | dozi ya kuua | dozi hatari | vipi""",
    suicide="""~kujiua | ~nijiue | ~kujitoa uhai | kujitoa roho | ili nife | ili kufa | nataka kufa
        | kufa bila maumivu | kufa usingizini | nisiamke | kutoamka tena | nitakufa | nife$
        | kujinyonga | kukata mshipa | nikate mshipa""",
    cut="~kujikata | ~kujidhuru | ~kujiumiza | ~najikata",
    hack="""~dukua | ~kuhack | hack$ | ~kuvunja nenosiri | kuingia kwenye akaunti | kuingia akaunti
        | ~kusoma ujumbe | ~kusoma meseji | ~peleleza | kufungua simu | ~kuiba nenosiri
        | ~kuiba password | kuvunja password | kucrack | naingiaje | kuingia kwenye barua pepe
        | kuingia kwenye email | kuingia kwenye whatsapp | nitasomaje | kusoma barua pepe""",
    others="""ya mpenzi wangu | ya ex wangu | wa zamani | ya mume wangu | ya mke wangu | ya jirani
        | ya bosi | ya mtu mwingine | ya watu wengine | ya mtu$ | yake$ | za mke wangu
        | za mume wangu | za mpenzi wangu | za bosi | za mtu | akaunti ya | simu ya
        | barua pepe ya | email ya | whatsapp ya | insta ya | instagram ya | facebook ya
        | wifi ya | laptop ya""",
    malware="""ransomware | keylogger | trojan | botnet | stealer | spyware | programu ya kuiba
        | programu hasidi | script ya kuiba | code ya kuiba""",
    cards="~kunakili kadi | kuiga kadi | kadi bandia | skimmer",
    code="andika | niandikie | ~tengenez | ~unda | programu ya | msimbo",
    drug="""methamphetamine | meth$ | amfetamini | amphetamine | heroini | heroin | fentanyl
        | fentanili | mdma | ecstasy | kokeini | cocaine | lsd$""",
    sexual="~ngono | uchi$ | ponografia | porn | sexy",
    minor="""mtoto | watoto | msichana mdogo | mvulana mdogo | chini ya umri | mwanafunzi
        | binti mdogo""",
    age_before="miaka",
    exempt="""kutegua | historia | habari | taarifa | dalili | ishara | hatari | matibabu | kutibu
        | kinga | kuzuia | kulinda | linda | usalama | kurejesha | akaunti yangu | nimesahau
        | kuripoti | ripoti | ushauri | msaada | kupata msaada | mchezo | michezo | filamu
        | sinema | panya | wadudu | magugu | mende | kutambua | nimedukuliwa | imedukuliwa
        | elimu ya ngono | kuzungumza | nimsaidie | kumsaidia | kumsaidiaje
        | nimekuwa mwathirika | tofauti kati | kuogea | la kuoga""",
    content="""andika | niandikie | tunga | nitumie | nionyeshe | wapi naweza kupata
        | naweza kupata wapi | pakua""",
)

RU = language_rules(
    "ru",
    ask="""как$ | пошагов | инструкци | рецепт | руководств | объясни | расскажи | научи | покажи
        | скажи | дай$ | дайте | помоги | хочу | нужно | надо | можешь | можете | какой | какая
        | какое | какие | каким | где купить | где достать | где взять | напиши | напишите
        | способ | метод | где скачать | где найти | скачать | сколько | где$ | что можно
        | подскажи""",
    make="""сделать | сделаю | делать | изготов | собрать | соберу | собирать | синтез | сварить
        | варить | приготов | произвести | производ | извлечь | выделить | смастерить | получени
        | варк | собрал""",
    weapon="""самодельная бомба | самодельную бомбу | самодельной бомбы | самодельные бомбы
        | самодельных бомб | трубчатая бомба | трубчатую бомбу | трубчатой бомбы
        | бомбу из трубы | бомба с гвоздями | бомбу с гвоздями | взрывное устройство
        | взрывного устройства | взрывные устройства | самодельная взрывчатка
        | самодельную взрывчатку | самодельной взрывчатки | самодельное взрывное
        | коктейль молотова | коктейля молотова | коктейли молотова | молотова | напалм | tatp
        | татп | перекись ацетона | пероксид ацетона""",
    bomb="""бомба$ | бомбу$ | бомбы$ | бомбой$ | взрывчатк | взрывчатое вещество
        | взрывчатого вещества | взрывчатые вещества | тротил | динамит""",
    poison="""отравить | отравлю | отравлять | отрави$ | отравы | отрава | отраву | яд$ | яда$
        | ядом$ | мышьяк | цианид | цианистый | крысиный яд | антифриз | стрихнин | таллий
        | рицин | подсыпать | подмешать | подсыпь | травит | травить""",
    victim="""кого-то | кого-нибудь | человека | мужа | мужу | жену | жене | соседа | соседу
        | соседку | начальника | начальнику | свекровь | свекрови | тёщу | коллегу | бывшего
        | бывшую | его еду | её еду | в еду | в напиток | в чай | в кофе | в суп | человек""",
    stealth="""чтобы никто не | чтобы не заметили | незаметно | не оставляя следов | без следов
        | следов не | не обнаруж | нельзя обнаружить | вскрыти | экспертиз
        | чтобы меня не поймали | не поймали | несчастный случай | несчастного случая
        | естественной смерт | естественная смерть | тайно | втайне | без шрамов
        | чтобы родители не | спрятать | скрыть | подстроить аварию | подстраивает аварию
        | похоже на аварию | как авария | не осталось следов | не оставить следов""",
    kill="""убить | убью | убивать | прикончить | задушить | зарезать | избить | избивать
        | устранить | избавиться от | тормоза | тормозной шланг""",
    method="""безболезнен | без боли | быстрее всего | самый быстрый | самый надёжный
        | надёжный способ | наверняка | способ | метод | сколько таблеток | сколько | какая доза
        | смертельная доза | смертельную дозу | летальная доза | с какого этажа | этаж
        | комбинаци""",
    suicide="""покончить с собой | покончить жизнь | убить себя | совершить самоубийство
        | самоубийство$ | суицид$ | суицида$ | суицидом$ | чтобы умереть | умереть во сне
        | умереть без боли | хочу умереть | умереть быстро | не проснуться
        | больше не проснуться | уйти из жизни | свести счёты | повеситься | точно умереть
        | умереть наверняка | гарантированно смерт | будет смертельн | способ уйти
        | чтоб наверняка | чтобы наверняка""",
    cut="""порезать себя | резать себя | порезы | селфхарм | самоповрежд | причинить себе вред
        | наносить себе | резать руки | порезать руки | порезать вены | вскрыть вены | резаться
        | режусь | порезаться""",
    hack="""взломать | взлом | взломаю | хакнуть | влезть в | залезть в | зайти в | войти в
        | получить доступ | читать переписку | читать сообщения | прочитать переписку | шпионить
        | разблокировать | узнать пароль | подобрать пароль | украсть пароль | чужую переписку
        | читать чужую | переписк | шпионск | перевыпустить | читать его | читать её
        | поставить на телефон""",
    others="""бывшей | бывшего | девушки | парня | мужа | жены | соседа | соседки | начальника
        | коллеги | чьей-то | чей-то | чью-то | кого-то | другого человека | его аккаунт
        | её аккаунт | его почту | её почту | его телефон | её телефон | чуж""",
    malware="""вымогател | ransomware | кейлоггер | keylogger | клавиатурный шпион | троян | ботнет
        | стилер | шпионскую программу | шпионская программа | spyware | шифровальщик | стиллер
        | rat$""",
    cards="""клонировать карт | клонирование карт | клон карт | скиммер | скимминг | данные чужих
        | чужих банковских карт | данные карт""",
    code="""напиши | напишите | написать | запрограммир | код$ | кода$ | создай | создать | сделай
        | сделать | разработа | собери | собрать | поднять""",
    drug="""метамфетамин | мет$ | амфетамин | героин | фентанил | мдма | mdma | экстази | кокаин
        | лсд | lsd | мефедрон | первитин | мета$ | меф$ | мефа$""",
    sexual="""сексуальн | секс | эротическ | эротик | голая | голую | голый | голые | голых
        | обнажённ | порно | порнограф | непристойн | развратн""",
    minor="""ребёнок | ребёнка | детей | дети$ | детьми | девочк | мальчик | несовершеннолетн
        | школьниц | школьник | подрост | малолет | лолит""",
    age="лет$ | летн",
    exempt="""обезвред | разминир | сапёр | войн | новост | теракт в | теракт на | взорвал | взрыв в
        | взрыв на | произошёл взрыв | симптом | признак | опасн | риск | лечени | лечить
        | противояди | антидот | профилакт | предотвра | предупред | защит | обезопас | безопасн
        | восстанов | вернуть доступ | свой аккаунт | мой аккаунт | моего аккаунта
        | забыл пароль | забыла пароль | сообщить | заявлени | пожаловаться | телефон доверия
        | горячая линия | горячей линии | обратиться за помощью | помочь ему | помочь ей
        | помочь другу | помочь подруге | игр | фильм | сериал | бомбочк | для ванны | это бомба
        | крыс | мыши$ | мышей | мышь$ | грызун | сорняк | вредител | тарака | муравь
        | определить | выявить | как понять | взломали | расследова | раскры | обработ
        | справиться | половое воспитание | поговорить | стал жертвой | стала жертвой | я жертва
        | разница между | чем отличается | законно | закон$ | закона | легально
        | получить лицензию | история россии | истории россии | по истории | урок истории
        | историческ | история создания | как работает | распозна""",
    gun="огнестрел | пистолет | ствол | оружие | травмат | обрез | калаш | автомат$",
    gunmod="""без серийного номера | без номера | серийник | отследить | самодельн | без лицензии
        | боевой патрон | боевые патроны | 3d-принтер | 3d принтер | напечатать | очередями
        | оружие-призрак | переделать травмат | травмат под | без номеров""",
    content="""напиши | напишите | сочини | опиши | создай | сгенерируй | пришли | скинь | покажи
        | где скачать | где найти | где посмотреть""",
)

UK = language_rules(
    "uk",
    ask="""як$ | покроков | інструкці | рецепт | посібник | поясни | розкажи | навчи | покажи
        | скажи | дай$ | дайте | допоможи | хочу | треба | потрібно | можеш | можете | який
        | яка$ | яке$ | які$ | яким | де купити | де дістати | де взяти | напиши | напишіть
        | спосіб | метод | яку$ | чим$ | скільки | що зробити | підкажи""",
    make="""зробити | зроблю | робити | виготов | зібрати | зберу | збирати | синтез | зварити
        | варити | приготувати | виробити | виробля | видобути | витягти | змайструвати | варить
        | варю""",
    weapon="""саморобна бомба | саморобну бомбу | саморобної бомби | саморобні бомби
        | трубчаста бомба | трубчасту бомбу | бомбу з труби | бомба з цвяхами | бомбу з цвяхами
        | вибуховий пристрій | вибухового пристрою | вибухові пристрої | саморобна вибухівка
        | саморобну вибухівку | саморобної вибухівки | коктейль молотова | коктейлі молотова
        | коктейлю молотова | молотова | напалм | tatp | пероксид ацетону | перекис ацетону
        | свп$ | саморобний вибуховий пристрій | саморобного вибухового""",
    bomb="""бомба$ | бомбу$ | бомби$ | бомбою$ | вибухівк | вибухова речовина | вибухову речовину
        | вибухових речовин | тротил | динаміт""",
    poison="""отруїти | отрую | отруїть | отруювати | отрута | отрути | отруту | отрутою | миш'як
        | ціанід | антифриз | стрихнін | рицин | підсипати | підмішати | труїти""",
    victim="""когось | людину | чоловіка | чоловікові | дружину | дружині | сусіда | сусідові
        | сусідку | начальника | начальникові | свекруху | тещу | колегу | колишнього | колишню
        | його їжу | її їжу | в їжу | у їжу | в напій | у напій | в чай | у чай | в каву
        | у каву""",
    stealth="""щоб ніхто не | щоб не помітили | непомітно | не залишаючи слідів | без слідів
        | не виявили | не виявлять | розтин | експертиз | щоб мене не спіймали | не спіймали
        | нещасний випадок | нещасного випадку | природна смерть | природної смерті | таємно
        | потай | без шрамів | щоб батьки не | сховати | приховати | аварію
        | ніхто не здогадався | не лишилось | не лишилося | синців | шрамів | не було видно""",
    kill="""вбити | вб'ю | вбивати | убити | прикінчити | задушити | зарізати | побити | позбутися
        | усунути | гальм""",
    method="""безболісн | без болю | найшвидш | найнадійніш | напевно | напевне | спосіб | метод
        | скільки таблеток | скільки пігулок | скільки | яка доза | смертельна доза
        | смертельну дозу | летальна доза | які таблетки""",
    suicide="""покінчити з собою | покінчити життя | вбити себе | скоїти самогубство
        | вчинити самогубство | самогубство$ | суїцид$ | суїциду$ | щоб померти
        | померти уві сні | померти без болю | хочу померти | не прокинутися
        | більше не прокинутися | піти з життя | повіситися | не прокинутись | точно не прокинут
        | покінчити з життям | точно померла | точно помер""",
    cut="""порізати себе | різати себе | порізи | самоушкодж | завдати собі шкоди | завдавати собі
        | різати руки | порізати руки | порізати вени""",
    hack="""зламати | злам | зламаю | хакнути | влізти в | залізти в | зайти в | увійти в
        | отримати доступ | читати листування | читати повідомлення | прочитати листування
        | шпигувати | розблокувати | дізнатися пароль | підібрати пароль | вкрасти пароль
        | читати чужі | чужі повідомлення | переписк | шпигунськ | обійти двофакторну
        | обійти автентифікацію""",
    others="""колишньої | колишнього | дівчини | хлопця | чоловіка | дружини | сусіда | сусідки
        | начальника | колеги | чийсь | чиюсь | чиєсь | когось | іншої людини | його акаунт
        | її акаунт | його пошту | її пошту | його телефон | її телефон | чуж | сусідів | батька
        | матері | без його | без її | її переписк | його переписк""",
    malware="""вимагач | ransomware | кейлогер | keylogger | троян | ботнет | стилер
        | шпигунську програму | шпигунська програма | spyware | краде паролі
        | краде збережені паролі | викрадає паролі | стілер | черв'як | rat$""",
    cards="клонувати карт | клонування карт | скімер | скімінг",
    code="""напиши | напишіть | написати | запрограму | код$ | коду$ | створи | створити | зроби
        | зробити | розроби""",
    drug="""метамфетамін | мет$ | амфетамін | героїн | фентаніл | мдма | mdma | екстазі | кокаїн
        | лсд | lsd | мефедрон | первітин""",
    sexual="""сексуальн | секс | еротичн | голу$ | гола$ | голий | голі$ | голих | оголен | порно
        | порнограф | непристойн | розпусн""",
    minor="""дитина | дитину | дитини | дітей | діти$ | дітьми | дівчинк | хлопчик | неповнолітн
        | школярк | школяр | підліт | підлітк | малолітн | лоліт""",
    age="років | річн | рік$",
    exempt="""знешкодж | розмінув | сапер | війн | новин | теракт | вибухнул | вибух у | вибух на
        | стався вибух | симптом | ознак | небезпечн | ризик | лікуванн | лікувати | протиотрут
        | антидот | профілакт | запобіг | попередит | захист | убезпеч | безпек | відновит
        | відновлен | повернути доступ | свій акаунт | мій акаунт | мого акаунта | забув пароль
        | забула пароль | повідомити | заяв | поскаржитися | телефон довіри | гаряча лінія
        | гарячої лінії | звернутися по допомогу | допомогти йому | допомогти їй
        | допомогти другу | допомогти подрузі | гра$ | гри$ | грі$ | ігр | фільм | серіал
        | бомбочк | для ванни | щур | миші$ | мишей | гризун | бур'ян | шкідник | тарган | мурах
        | визначити | як зрозуміти | зламали | розслідув | розкри | обробит | впоратися
        | статеве виховання | поговорити | став жертвою | стала жертвою | різниця між
        | чим відрізняється | законно | закон$ | закону | легально | отримати ліцензію
        | історія україни | історії україни | з історії | урок історії | історичн | як працює
        | розпізна""",
    gun="ствол | пістолет | зброя | зброю | зброї | автомат$ | обріз | травмат",
    gunmod="""без номера | без серійного номера | відстеж | незареєстрован | без документів
        | без дозволу | бойовий патрон | справжніми набоями | 3d-принтер | надрукувати""",
    content="""напиши | напишіть | створи | опиши | надішли | скинь | покажи | де завантажити
        | де знайти | де подивитися""",
)

EL = language_rules(
    "el",
    ask="""πώς$ | πώς να | πώς μπορώ | βήμα βήμα | βήματα | οδηγίες | συνταγή | οδηγό | εξήγησε
        | εξήγησέ | πες μου | δείξε μου | δώσε μου | βοήθησέ με | βοήθησε με | μάθε μου | θέλω
        | χρειάζομαι | μπορείς | ποιο$ | ποια$ | ποιος | ποιον | πού να | από πού | γράψε
        | γράψτε | τρόπο | μέθοδο | στείλε | βοήθα με | υπάρχει | με τι""",
    make="""φτιάξω | φτιάξεις | φτιάχνω | φτιάχνεις | φτιάξει | φτιαχτ | κατασκευάσω | κατασκευή
        | κατασκευάζω | συναρμολογ | συνθέσω | σύνθεση | μαγειρέψω | μαγειρεύω | παράγω
        | παραγωγή | παρασκευάσω | εξαγάγω | μαγειρεύ | συνθέτω | συνθέτεις | συνταγή""",
    weapon="""βόμβα σωλήνα | βόμβα με καρφιά | βόμβες με καρφιά | αυτοσχέδια βόμβα
        | αυτοσχέδιο εκρηκτικό | αυτοσχέδιος εκρηκτικός | αυτοσχέδιου εκρηκτικού
        | εκρηκτικός μηχανισμός | εκρηκτικό μηχανισμό | εκρηκτικού μηχανισμού | σπιτική βόμβα
        | χειροποίητη βόμβα | μολότοφ | tatp | υπεροξείδιο της ακετόνης | ναπάλμ
        | αυτοσχέδιο πυροκροτητή | αυτοσχέδιος πυροκροτητής""",
    bomb="βόμβα$ | βόμβες$ | βόμβας$ | εκρηκτικ | δυναμίτ",
    poison="""δηλητηριάσω | δηλητηριάζω | δηλητηριάσεις | δηλητηριάσει | δηλητήριο | δηλητηρίου
        | αρσενικό | κυάνιο | ποντικοφάρμακο | αντιψυκτικό | στρυχνίνη | δηλητηριάζ""",
    victim="""κάποιον | κάποια$ | κάποιου | άνθρωπο | τον άντρα μου | τον σύζυγό μου
        | τη γυναίκα μου | τη σύζυγό μου | τον γείτονα | τη γειτόνισσα | τον προϊστάμενο
        | το αφεντικό | την πεθερά | τον πεθερό | τον συνάδελφο | τη συνάδελφο | τον πρώην
        | την πρώην | στο φαγητό | στο ποτό | στον καφέ | στο τσάι | το φαγητό του
        | το φαγητό της | τον άντρα της | τη γυναίκα του""",
    stealth="""χωρίς να το καταλάβει | χωρίς να καταλάβει | χωρίς να με πιάσουν
        | χωρίς να με καταλάβουν | χωρίς ίχνη | χωρίς να αφήσω ίχνη | δεν ανιχνεύεται
        | μη ανιχνεύσιμο | νεκροψία | νεκροψίας | ιατροδικαστ | σαν ατύχημα
        | να μοιάζει με ατύχημα | φυσικό θάνατο | φυσικός θάνατος | κρυφά | στα κρυφά
        | χωρίς σημάδια | χωρίς ουλές | να μη φαίνεται | να μην το δουν | κρύψω | κρύβω
        | να μην το βλέπουν | μην το βλέπουν | μοιάζει ατύχημα | μοιάζει με ατύχημα""",
    kill="""σκοτώσω | σκοτώνω | σκοτώσεις | σκοτώσει | δολοφονήσω | στραγγαλίσω | πνίξω | μαχαιρώσω
        | δείρω | ξυλοκοπήσω | ξεφορτωθώ | πνίξει""",
    method="""ανώδυνα | ανώδυνο | ανώδυνος | χωρίς πόνο | πιο γρήγορ | πιο σίγουρ | σίγουρα | τρόπος
        | τρόπο | μέθοδος | μέθοδο | πόσα χάπια | πόσες ταμπλέτες | πόσα | πόση
        | θανατηφόρα δόση | θανατηφόρο δόση | πόσους ορόφους | ορόφ | συνδυασμ""",
    suicide="""να αυτοκτονήσω | αυτοκτονήσω | αυτοκτονία$ | αυτοκτονίας$ | να σκοτωθώ
        | σκοτώσω τον εαυτό μου | να πεθάνω | πεθάνω | να μην ξυπνήσω | να μην ξαναξυπνήσω
        | τέλος στη ζωή μου | σίγουρα θανατηφόρ | να τελειώσω""",
    cut="""να κόψω τον εαυτό μου | κόβω τον εαυτό μου | αυτοτραυματισμ | να αυτοτραυματιστώ
        | να κάνω κακό στον εαυτό μου | κόβομαι""",
    hack="""χακάρω | χακάρεις | χακάρισμα | να μπω στο | να μπω στον | να μπω στην | πρόσβαση στο
        | πρόσβαση στον | πρόσβαση στην | διαβάσω τα μηνύματα | κατασκοπεύσω | ξεκλειδώσω
        | σπάσω τον κωδικό | βρω τον κωδικό | κλέψω τον κωδικό | παραβιάσω | μπαίνω στο
        | μπαίνω στον | μπαίνω στην | διαβάζω κρυφά | διαβάζω τα μηνύματα | τα μηνύματα του
        | τα μηνύματα της | σπάω | σπάσω | spyware | κατασκοπείας | παρακάμπτω | παρακάμψω""",
    others="""της πρώην μου | του πρώην μου | της κοπέλας μου | του φίλου μου | της φίλης μου
        | του άντρα μου | της γυναίκας μου | του συζύγου | της συζύγου | του γείτονα
        | της γειτόνισσας | του αφεντικού | του συναδέλφου | κάποιου άλλου | άλλου ατόμου
        | ξένο λογαριασμό | τον λογαριασμό του | τον λογαριασμό της | το κινητό του
        | το κινητό της | το wifi του | το email του | το email της | το instagram της
        | το instagram του""",
    malware="""ransomware | λυτρισμικό | keylogger | καταγραφέα πληκτρολογήσεων | δούρειο ίππο
        | δούρειος ίππος | trojan | botnet | stealer | κατασκοπευτικό λογισμικό | spyware""",
    cards="κλωνοποίηση κάρτ | κλωνοποιήσω κάρτ | κλωνοποιήσω πιστωτικ | skimmer",
    code="""γράψε | γράψτε | γράψεις | προγραμμάτισε | κώδικα | φτιάξε | φτιάξω | δημιούργησε
        | φτιάχνω | φτιάχνεις""",
    drug="""μεθαμφεταμίνη | meth$ | αμφεταμίνη | ηρωίνη | φαιντανύλη | φεντανύλη | mdma | έκσταση
        | κοκαΐνη | lsd$ | κρυσταλλική μεθ | σίσα$ | σίσας""",
    sexual="""σεξουαλικ | σεξ$ | σέξι | ερωτικ | γυμνή | γυμνό | γυμνές | γυμνά | γυμνός | πορνό
        | πορνογραφ | άσεμν""",
    minor="""παιδί | παιδιού | παιδιά | κοριτσάκι | αγοράκι | ανήλικ | μαθήτρια | μαθητής | έφηβ
        | λολίτα""",
    age="χρονών | χρόνων | ετών",
    exempt="""εξουδετέρω | απενεργοποί | πυροτεχνουργ | ιστορία | ιστορικ | πόλεμο | πολέμου
        | ειδήσεις | τρομοκρατική επίθεση | εξερράγη | έκρηξη στ | συμπτώματα
        | προειδοποιητικά σημάδια | σημάδια ότι | κίνδυν | επικίνδυν | θεραπεία | αντίδοτο
        | πρόληψη | προλάβω | αποτρέψω | προστατέψω | προστασία | ασφαλίσω | ασφάλεια | ανακτήσω
        | ανάκτηση | δικό μου λογαριασμό | το δικό μου | ξέχασα τον κωδικό | καταγγείλω
        | καταγγελία | γραμμή βοήθειας | ζητήσω βοήθεια | βοηθήσω τον | βοηθήσω την
        | βοηθήσω έναν | παιχνίδι | ταινία | σειρά$ | βόμβα μπάνιου | ποντίκια | ποντικούς
        | αρουραίους | ζιζάνια | έντομα | κατσαρίδες | μυρμήγκια | αναγνωρίσω | εντοπίσω
        | πώς καταλαβαίνω | με χάκαραν | χακαρίστηκε | σεξουαλική διαπαιδαγώγηση | μιλήσω
        | έπεσα θύμα | είμαι θύμα | διαφορά | πώς λειτουργεί""",
    gun="όπλο | όπλα$ | πιστόλι | τουφέκι | καλάσνικοφ | περίστροφο",
    gunmod="""3d εκτυπωτή | 3d printer | τυπώσω | χωρίς σειριακό | σειριακό αριθμό | χωρίς άδεια
        | να μην εντοπίζεται | μη ανιχνεύσιμο | φάντασμα""",
    content="""γράψε | γράψτε | περίγραψε | φτιάξε | στείλε | δείξε | πού να βρω | πού βρίσκω
        | κατεβάσω""",
)

AR = language_rules(
    "ar",
    prefix=AR_CLITICS,
    ask="""كيف | كيفية | طريقة | خطوات | خطوة بخطوة | تعليمات | وصفة | دليل | اشرح | علمني | أرني
        | اعطني | أعطني | ساعدني | أريد | أحتاج | ممكن | هل يمكنك | ما هي أفضل | أفضل طريقة
        | من أين | اكتب | برمج | ابغى | بدي | عايز | عاوز | ازاي | شلون | كيفاش | وين | عطيني
        | عطني | وش$ | ما هي | عايزة | أبي | ابي""",
    make="""أصنع | اصنع | صنع | تصنيع | يصنع | نصنع | صناعة | أحضر | تحضير | تركيب | أركب | تجميع
        | أجمع | تخليق | أطبخ | طبخ | أنتج | إنتاج | استخراج | أستخرج | أعمل | اعمل | أسوي
        | اسوي""",
    weapon="""قنبلة أنبوبية | قنبلة مسامير | قنبلة يدوية الصنع | قنبلة محلية الصنع | قنبلة بدائية
        | قنبلة منزلية | عبوة ناسفة | عبوات ناسفة | متفجرات محلية | متفجرات يدوية | جهاز متفجر
        | مولوتوف | tatp | بيروكسيد الأسيتون | نابالم""",
    bomb="قنبلة | قنابل | متفجرات | مواد متفجرة | ديناميت",
    poison="""أسمم | اسمم | تسميم | يسمم | السم$ | سموم | سما قاتلا | سم قاتل | زرنيخ | سيانيد
        | مانع التجمد | ستركنين | سم ما | سم لا | سم يقتل | سم قوي | دسها | أدس | يدس""",
    victim="""شخص | أحدهم | زوجي | زوجتي | جاري | جارتي | مديري | رئيسي | حماتي | حمايا | زميلي
        | زميلتي | طليقي | طليقتي | أكله | طعامه | طعامها | شرابه | شرابها | قهوته | قهوتها
        | الطعام | الشراب | أكل | زوجته | زوجها""",
    stealth="""دون أن يكتشف | بدون أن يكتشف | دون أن يلاحظ | بدون ما حد يعرف | دون أثر | بدون أثر
        | لا يترك أثرا | لا يكتشف | لا يمكن اكتشافه | لا يظهر في | التشريح | تشريح الجثة
        | الطب الشرعي | كأنه حادث | كحادث | يبدو كحادث | وفاة طبيعية | موت طبيعي | سرا | خلسة
        | بدون ندوب | دون أن يعرف أهلي | أخفي | إخفاء | حادث عادي | حادثة عادية | ما حدا ينتبه
        | ما أحد ينتبه | ما يشوفها | ما يبين""",
    kill="""أقتل | اقتل | قتل | يقتل | أخنق | اخنق | أطعن | اطعن | أتخلص من | التخلص من | فرامل
        | تخلص من""",
    method="""بدون ألم | دون ألم | بلا ألم | غير مؤلمة | أسرع طريقة | أسرع | أضمن | طريقة | كم حبة
        | كم قرص | كم$ | الجرعة القاتلة | جرعة قاتلة | جرعة مميتة""",
    suicide="""أنتحر | انتحر | الانتحار | انتحار | أقتل نفسي | اقتل نفسي | قتل نفسي | أنهي حياتي
        | انهي حياتي | إنهاء حياتي | أموت | لا أستيقظ | أنام ولا أصحى | ما أصحى | ما اصحى
        | ما أصحا""",
    cut="أجرح نفسي | اجرح نفسي | إيذاء النفس | إيذاء نفسي | أؤذي نفسي | جرح نفسي | أقطع يدي | أجرح",
    hack="""أخترق | اختراق | اخترق | تهكير | أهكر | اهكر | هكر | سرقة حساب | أسرق حساب | اسرق حساب
        | الدخول إلى حساب | الدخول على حساب | أدخل على حساب | ادخل حساب | أتجسس | التجسس | تجسس
        | أقرأ رسائل | اقرأ رسائل | قراءة رسائل | فتح قفل | كلمة سر | كلمة مرور | باسورد
        | باسوورد | الواي فاي | رسايله | رسايلها | رسائله | sim swap | سيم سواب | أدخل على
        | ادخل على | ادخل ع | أدخل ع | رسايل الواتساب""",
    others="""حساب شخص | حبيبتي | حبيبي | زوجي | زوجتي | جاري | جيراني | الجيران | مديري | زميلي
        | زميلتي | طليقتي | طليقي | شخص آخر | غيري | الآخرين | حسابها | حسابه | هاتفها | هاتفه
        | جواله | جوالها | رسائلها | رسائله | إيميلها | ايميله | أبوي | حقته | حقها | حقه | تبعه
        | تبعها | خطيبتي السابقة | السابقة | مدير | مو حقي | مش حقي | مش بتاعي | رقم شخص
        | حساب شخص آخر""",
    malware="""برنامج فدية | برامج الفدية | فيروس فدية | رانسوم | ransomware | كيلوجر | keylogger
        | حصان طروادة | تروجان | trojan | بوت نت | botnet | ستيلر | stealer | برنامج تجسس
        | برامج تجسس | spyware | يسحب الباسوردات | الباسوردات المحفوظة | يسحب كلمات المرور
        | فيروس يمسح | فيروس يسرق | فيروس يشفر | يشفر كل الملفات | يشفر الملفات
        | rat$""",
    cards="استنساخ بطاقات | استنساخ بطاقة | نسخ بطاقات | بطاقات مستنسخة | سكيمر | skimmer",
    code="""اكتب | برمج | أنشئ | انشئ | اصنع | صمم | كود | سكربت | محتاج | أحتاج | ابغى | أبني
        | ابني | أدمج | اعمل لي | سوي لي""",
    drug="""ميثامفيتامين | ميث$ | شبو | كريستال ميث | أمفيتامين | كبتاجون | هيروين | فنتانيل
        | ام دي ام ايه | mdma | إكستاسي | اكستاسي | كوكايين | lsd | كبتاغون""",
    sexual="""جنسي$ | جنسيا | قصة جنسية | صور جنسية | محتوى جنسي | علاقة جنسية | ممارسة الجنس | عاري
        | عارية | عراة | سكس | إباحي | إباحية""",
    minor="""طفل | طفلة | أطفال | قاصر | قاصرة | قاصرين | فتاة صغيرة | بنت صغيرة | ولد صغير | تلميذة
        | تلميذ | مراهق | مراهقة""",
    age="عاما | عام$ | سنة | سنوات | سنين",
    exempt="""تفكيك | إبطال | خبراء المتفجرات | تاريخ | تاريخي | الحرب | أخبار | خبر | انفجر
        | انفجار في | أعراض | خطر | خطورة | خطير | علاج | ترياق | مضاد | الوقاية | وقاية | منع
        | حماية | أحمي | تأمين | أمان | استعادة | استرجاع | حسابي | نسيت | إبلاغ | أبلغ | بلاغ
        | خط المساعدة | خط ساخن | طلب المساعدة | أساعد | مساعدته | مساعدتها | لعبة | ألعاب
        | فيلم | مسلسل | قنبلة استحمام | فئران | جرذان | حشرات | الأعشاب الضارة | صراصير | نمل
        | أتعرف | التعرف | كيف أكتشف | كيف أعرف | تم اختراق | اخترقوا | موقوتة | غذائي | عدد
        | نسبة | إحصائيات | التربية الجنسية | أتحدث | تأثير | الجسم | وقعت ضحية | أنا ضحية
        | القانونية | قانوني | كيف يعمل""",
    gun="مسدس | سلاح | بندقية | رشاش | فردي",
    gunmod="""لا يمكن تتبعه | يتتبعه | يتبعونيش | بدون رقم تسلسلي | بلا رقم تسلسلي | رقم تسلسلي
        | طابعة ثلاثية | طابعة 3d | ثلاثية الأبعاد | مسدس حقيقي | رصاص حي | سلاح شبح""",
    content="""اكتب | ألف | أنشئ | صف$ | أرسل لي | ارسل لي | أعطني | وين ألاقي | أين أجد
        | من أين أحصل | تحميل""",
)

FA = language_rules(
    "fa",
    ask="""چطور | چگونه | چجوری | چه جوری | طرز | روش | مراحل | قدم به قدم | دستورالعمل | دستور
        | آموزش | توضیح بده | یادم بده | یاد بده | نشانم بده | نشون بده | بگو | بهم بگو
        | به من بگو | کمکم کن | کمک کن | میخواهم | میخوام | لازم دارم | نیاز دارم | میتونی
        | میتوانی | بنویس | بهترین راه | راهی | کجا | معرفی کن | چه سمی""",
    make="""بسازم | ساختن | ساخت$ | بسازیم | درست کنم | درست کردن | تولید | سنتز | بپزم | پختن
        | استخراج | تهیه | سرهم | مونتاژ | درست می | درست کن""",
    weapon="""بمب لوله | بمب دست ساز | بمب دستساز | بمب خانگی | بمب میخی | مواد منفجره دست ساز
        | مواد منفجره دستساز | مواد منفجره خانگی | وسیله انفجاری | ادوات انفجاری | بمب آتش زا
        | بمب آتشزا | کوکتل مولوتف | مولوتف | مولوتوف | tatp | پراکسید استون | ناپالم""",
    bomb="بمب | مواد منفجره | مواد انفجاری | دینامیت | باروت",
    poison="""مسموم کنم | مسموم کردن | مسموم کند | مسمومش | زهر | سم$ | سیانور | آرسنیک | مرگ موش
        | ضد یخ | استریکنین | سمی$ | مسموم میکنه | مسموم میکند | مسموم کنه""",
    victim="""کسی | یک نفر | یه نفر | شخصی | شوهرم | همسرم | زنم | همسایه | رئیسم | مادرشوهرم
        | مادرزنم | همکارم | سابقم | غذایش | غذاش | نوشیدنیاش | چاییاش | قهوهاش | غذا | نوشیدنی
        | او را | اونو | غذای | زنشو | شوهرش | زنش | شوهرخواهرم""",
    stealth="""بدون اینکه کسی | بی آنکه کسی | که کسی نفهمد | که کسی نفهمه | متوجه نشود | متوجه نشه
        | بدون رد | بی رد | ردی باقی نماند | ردی نماند | قابل ردیابی نباشد | کالبدشکافی
        | پزشکی قانونی | شبیه تصادف | مثل تصادف | مثل یک تصادف | مرگ طبیعی | مخفیانه | پنهانی
        | یواشکی | جای زخم | پنهان کنم | مخفی کنم | شبیه یه تصادف | تصادف معمولی | تصادف طبیعی
        | متوجه نشن | نبینن | جاش نمونه""",
    kill="""بکشم | کشتن | بکشیمش | بکشمش | قتل | خفه کنم | چاقو بزنم | کتک بزنم | از شرش خلاص | ترمز
        | میکشه | بکشه""",
    method="""بدون درد | بی درد | بیدرد | سریعترین | سریع ترین | مطمئنترین | مطمئن ترین | روش | راه$
        | راهی | چند قرص | چند تا قرص | چقدر | دوز کشنده | مقدار کشنده""",
    suicide="""خودکشی | خودم را بکشم | خودمو بکشم | خودم رو بکشم | به زندگیم پایان
        | به زندگی ام پایان | به زندگی خودم پایان | بمیرم | دیگر بیدار نشوم | دیگه بیدار نشم
        | بیدار نشم | تمومش کنم | تموم کردنش | خودشو بکشه""",
    cut="""خودزنی | به خودم آسیب | آسیب زدن به خود | رگ بزنم | رگم را بزنم | تیغ بزنم | خودم را زخمی
        | دستمو ببرم | دستم را ببرم | تیغ بکشم""",
    hack="""هک | نفوذ | وارد اکانت | وارد حساب | وارد ایمیل | رمز عبور | پسورد | جاسوسی
        | پیامهایش را بخوانم | پیامهاشو بخونم | باز کردن قفل | قفل گوشی | بشکنم | شکستن رمز
        | رمز وایفای | کرک | پیامای | پیامهای | واتساپش | نصب کنم | sim swap | سیمکارت
        | وارد جیمیل | جیمیلش | اینستای | برم تو اینستا | کد تایید | کد تأیید""",
    others="""دوست دخترم | دوست پسرم | سابقم | شوهرم | همسرم | زنم | همسایه | رئیسم | همکارم
        | یک نفر دیگر | کس دیگری | دیگران | دیگری | اکانتش | حسابش | گوشیاش | گوشیش | ایمیلش
        | اینستاگرامش | واتساپش | دوستدخترم | دوستپسرم | یه نفر | یه نفرو | جیمیلش | مدیرعامل""",
    malware="""باج افزار | باجافزار | ransomware | کیلاگر | keylogger | تروجان | اسب تروا | trojan
        | بات نت | باتنت | botnet | استیلر | stealer | جاسوس افزار | جاسوسافزار | spyware
        | پسوردهای ذخیره | رمزهای ذخیره | ویروسی بنویس | همه فایلهای | رو رمز کنه
        | rat$""",
    cards="کپی کارت | کلون کارت | شبیه سازی کارت | اسکیمر | skimmer",
    code="بنویس | برنامه نویسی کن | کد$ | بساز | طراحی کن | لازم دارم | میخوام | میخواهم",
    drug="""متامفتامین | مت آمفتامین | آمفتامین | هروئین | هرویین | فنتانیل | ام دی ام ای | mdma
        | اکستازی | قرص اکس | کوکائین | کوکایین | lsd | کراک | شیشه تو خونه | شیشه در خانه
        | شیشه از قرص | پخت شیشه | شیشه درست | شیشه رو چطوری""",
    sexual="جنسی | سکس | سکسی | شهوانی | برهنه | لخت | پورن | مستهجن | عریان",
    minor="""کودک | بچه | دختربچه | دختر بچه | پسربچه | پسر بچه | خردسال | زیر سن قانونی | نوجوان
        | دانش آموز | دانشآموز""",
    age="ساله | سال$",
    exempt="""خنثی | تاریخ | تاریخی | جنگ | اخبار | خبر | منفجر شد | انفجار در | علائم | نشانه | خطر
        | خطرناک | درمان | پادزهر | جلوگیری | پیشگیری | محافظت | حفاظت | امنیت | ایمن | بازیابی
        | برگرداندن | حساب خودم | اکانت خودم | فراموش کردم | گزارش | شکایت | اورژانس اجتماعی
        | خط کمک | صدای مشاور | مشاوره | کمک بگیرم | کمک کنم | کمکش کنم | بازی | فیلم | موشها
        | موش ها | از شر موش | سوسک | حشرات | علف هرز | آفت | بفهمم | هک شده | هکم کرده
        | آموزش جنسی | بمب ساعتی | بمب خبری | بمب انرژی | صحبت کنم | قربانی شدم | قربانی شده
        | چطور کار میکند | چطوری کار میکنه | سریال تلویزیونی | یه سریال | این سریال | تشخیص بدهم
        | چطور تشخیص | تشخیص بدم | مستند | بمب حمام""",
    gun="اسلحه | سلاح | تفنگ | کلت | کلاشینکف",
    gunmod="""بدون مجوز | شماره سریال | قابل ردیابی نباشه | قابل ردیابی نباشد | غیرقابل ردیابی
        | پرینتر سه بعدی | سه بعدی | سهبعدی | گلوله جنگی | دستساز | دست ساز""",
    content="بنویس | بساز | توصیف کن | بفرست | نشان بده | کجا پیدا | از کجا | دانلود",
)

HE = language_rules(
    "he",
    prefix=HE_CLITICS,
    ask="""איך | כיצד | שלבים | שלב אחר שלב | הוראות | מתכון | מדריך | הסבר | תסביר | תלמד אותי
        | תראה לי | תגיד לי | תן לי | תני לי | תעזור לי | עזור לי | אני רוצה | רוצה$ | צריך
        | אתה יכול | תוכל | איזה | איזו | מאיפה | תכתוב | כתוב | הדרך הכי | שיטה | איפה | אפשר
        | תמליץ | תני$ | מה עושים""",
    make="""להכין | אכין | מכין | להרכיב | ארכיב | לבנות | אבנה | לייצר | אייצר | ייצור | לסנתז
        | סינתזה | לבשל | אבשל | להפיק | לחלץ | מיצוי | מבשל | מבשלים""",
    weapon="""מטען צינור | פצצת צינור | פצצה מצינור | פצצת מסמרים | מטען חבלה | מטעני חבלה
        | מטען מאולתר | מטענים מאולתרים | פצצה מאולתרת | פצצה ביתית | חומר נפץ ביתי
        | חומר נפץ מאולתר | בקבוק תבערה | בקבוקי תבערה | מולוטוב | tatp | אצטון פרוקסיד | נפאלם""",
    bomb="פצצה | פצצות | חומר נפץ | חומרי נפץ | דינמיט | אבק שריפה",
    poison="להרעיל | ארעיל | מרעיל | רעל$ | רעלים | ארסן | ציאניד | נוזל קירור | סטריכנין",
    victim="""מישהו | מישהי | בן אדם | בעלי | אשתי | השכן | השכנה | שכן | הבוס | המנהל | חמותי | חמי
        | הקולגה | האקס | האקסית | האוכל שלו | האוכל שלה | המשקה שלו | המשקה שלה | לאוכל | למשקה
        | בקפה | בתה$ | את אשתו | אשתו | בעלה | את בעלה""",
    stealth="""בלי שאף אחד | מבלי שאף אחד | בלי שירגישו | בלי שידעו | בלי להשאיר עקבות | ללא עקבות
        | בלי עקבות | לא ניתן לגלות | שלא יגלו | לא יתגלה | נתיחה | נתיחת | פתולוג | כמו תאונה
        | שייראה כמו תאונה | שיראה כמו תאונה | מוות טבעי | בסתר | בחשאי | בלי צלקות | שההורים לא
        | להסתיר | אסתיר | לא ישים לב | אף אחד לא""",
    kill="""להרוג | אהרוג | לרצוח | ארצח | לחנוק | לדקור | להכות | להיפטר מ | להעלים | מחבלים בבלמים
        | לחבל בבלמים | בלמים | הורגת | הורג$""",
    method="""בלי כאב | ללא כאב | לא כואב | הכי מהירה | הכי מהיר | הכי בטוח | דרך$ | דרכים | שיטה
        | כמה כדורים | כמה כדורי | כמה | מנה קטלנית | מינון קטלני | דרך מהירה""",
    suicide="""להתאבד | אתאבד | התאבדות$ | להרוג את עצמי | אהרוג את עצמי | לשים קץ לחיי
        | לסיים את החיים | כדי למות | למות בשינה | למות בלי | רוצה למות | שאמות | לא להתעורר
        | לא אתעורר | לסיים את זה""",
    cut="""לחתוך את עצמי | אחתוך את עצמי | פגיעה עצמית | לפגוע בעצמי | אפגע בעצמי | חתכים
        | לחתוך ביד | ביד לחתוך""",
    hack="""לפרוץ | אפרוץ | פריצה | להאק | לפצח | לנחש סיסמה | סיסמה של | להיכנס לחשבון
        | להיכנס לטלפון | לקרוא את ההודעות | לרגל | לפתוח את הנעילה | לגנוב סיסמה | ההודעות שלו
        | ההודעות שלה | ההודעות וההקלטות | sim swap | סים כפול | להיכנס לג'ימייל
        | להיכנס לאינסטגרם | להיכנס למייל | להיכנס לוואטסאפ | להיכנס לפייסבוק | משתלטים | להשתלט""",
    others="""של האקסית | של האקס | של החברה שלי | של החבר שלי | של בעלי | של אשתי | של השכן
        | של השכנה | של הבוס | של עמית | של מישהו | של מישהי | של אחרים | של אדם אחר | מישהו אחר
        | שלו$ | שלה$ | של השכנים""",
    malware="""תוכנת כופר | כופרה | ransomware | קילוגר | keylogger | סוס טרויאני | טרויאני | trojan
        | בוטנט | botnet | סטילר | stealer | רוגלה | רוגלות | תוכנת ריגול | spyware
        | שגונב את הסיסמאות | גונב סיסמאות | שגונב סיסמאות | הסיסמאות השמורות
        | וירוס שמוחק | וירוס שגונב | וירוס שמצפין | שמצפין את כל הקבצים | מצפין את הקבצים
        | rat$""",
    cards="שכפול כרטיס | לשכפל כרטיס | כרטיסי אשראי משוכפלים | סקימר | skimmer",
    code="תכתוב | כתוב | לכתוב | תתכנת | לתכנת | קוד | תבנה | תיצור | צור$ | צריך | בונים | לבנות",
    drug="""מתאמפטמין | קריסטל מת | אמפטמין | הרואין | פנטניל | אם די אם איי | mdma | אקסטזי
        | קוקאין | lsd | מת'""",
    sexual="""מיני$ | מינית$ | מיניים | סקס | סקסי | ארוטי | ארוטית | עירום | עירומה | ערום | ערומה
        | פורנו | פורנוגרפי""",
    minor="ילד | ילדה | ילדים | קטין | קטינה | קטינים | תלמידה | תלמיד | נערה | נער$ | פעוט",
    age_before="בת | בן",
    exempt="""לנטרל | נטרול | פירוק | לפרק | חבלן | חבלנים | היסטוריה | היסטורי | מלחמת | מלחמה
        | חדשות | כתבה | התפוצץ | פיצוץ ב | תסמינים | סימנים | סכנה | מסוכן | סיכון | טיפול
        | נוגדן | מניעה | מניעת | למנוע | להגן | הגנה | אבטחה | לאבטח | לשחזר | שחזור
        | החשבון שלי | שכחתי | לדווח | דיווח | תלונה | קו חם | ער"ן | לבקש עזרה | לעזור לו
        | לעזור לה | לעזור לחבר | משחק | סרט | סדרה | פצצת אמבט | פצצה מתקתקת | עכברים | חולדות
        | מזיקים | עשבים | ג'וקים | נמלים | לזהות | איך אדע | נפרץ | פרצו לי | בעלי חיים
        | הרעלת מזון | חינוך מיני | לדבר | נפלתי קורבן | אני קורבן | איך זה עובד | איך עובד""",
    gun="אקדח | נשק | רובה | תת-מקלע | קלצ'ניקוב",
    gunmod="""מדפסת תלת | תלת-ממד | תלת ממד | תלת מימד | אי אפשר לאתר | לא יוכלו לאתר
        | שלא ניתן לאתר | בלי מספר סידורי | ללא מספר סידורי | בלי רישיון | כדורים אמיתיים
        | אוטומטי מלא | נשק רפאים""",
    content="""תכתוב | כתוב | תיצור | תתאר | שלח לי | תשלח לי | תראה לי | איפה אפשר למצוא
        | איפה מוצאים | להוריד""",
)

UR = language_rules(
    "ur",
    ask="""کیسے | کس طرح | طریقہ | طریقے | مراحل | قدم بہ قدم | ہدایات | ترکیب | نسخہ | گائیڈ
        | سمجھاؤ | سمجھائیں | سکھاؤ | سکھائیں | بتاؤ | بتائیں | بتا دو | دکھاؤ | مدد کرو
        | مدد کریں | چاہتا ہوں | چاہتی ہوں | چاہیے | ضرورت ہے | کیا آپ | کہاں سے | لکھو | لکھیں
        | بہترین طریقہ | بتا دیں | کون سا | کتنی | کہاں""",
    make="""بناؤں | بنانا | بنانے | بنائیں | بناتے | بنا سکتا | تیار کرنا | تیار کروں | تیار کریں
        | جوڑنا | اسمبل | کشید | نکالنا | پکانا | پکاؤں | بنایا | بنائے | کیسے بنا | تیار کرتے
        | ریفائن""",
    weapon="""پائپ بم | کیلوں والا بم | دیسی بم | گھریلو بم | گھر میں بم | دیسی ساختہ بم
        | دھماکہ خیز آلہ | دیسی ساختہ دھماکہ خیز | آئی ای ڈی | مولوٹوف | مولوتوف | پیٹرول بم
        | tatp | ایسیٹون پرآکسائیڈ | نیپام""",
    bomb="بم$ | دھماکہ خیز مواد | بارود | ڈائنامائٹ",
    poison="""زہر$ | زہر دے | زہر دینا | زہر ملا | سائنائیڈ | سنکھیا | آرسینک | اینٹی فریز
        | گولیاں ڈالوں | گولیاں ملا""",
    victim="""کسی کو | کسی شخص | شوہر | بیوی | پڑوسی | ہمسائے | باس | ساس | سسر | ساتھی | کولیگ
        | سابقہ | کھانے میں | کھانے | مشروب | چائے میں | کافی میں | اسے$ | اس کو""",
    stealth="""بغیر کسی کو پتہ | کسی کو پتہ نہ | پتہ نہ چلے | پتا نہ چلے | کوئی نشان نہ
        | نشان چھوڑے بغیر | بغیر نشان | پکڑا نہ جاؤں | پکڑے بغیر | پوسٹ مارٹم | حادثہ لگے
        | حادثے جیسا | قدرتی موت | چپکے سے | چھپ کر | خفیہ طور | داغ نہ | نشان نہ رہے | چھپانا
        | چھپاؤں | ایکسیڈنٹ لگے | نظر نہ آئیں | نشان نہ رہیں""",
    kill="""مار دوں | مارنا | مار ڈالوں | قتل | جان سے مار | گلا گھونٹ | چاقو مار | پیٹنا | پٹائی
        | ٹھکانے لگا | بریک | مارتی | مارتا""",
    method="""بغیر درد | بنا درد | بے درد | درد کے بغیر | سب سے تیز | سب سے آسان | یقینی | طریقہ
        | کتنی گولیاں | کتنی گولی | کتنی | کتنا | مہلک خوراک | جان لیوا خوراک | کون سی گولیاں
        | جلدی والا""",
    suicide="""خودکشی | خود کشی | خود کو مار | اپنے آپ کو مار | اپنی جان لے | جان دے دوں | زندگی ختم
        | مر جاؤں | مرجاؤں | مرنے کے لیے | مرنے کا | دوبارہ نہ اٹھوں | سوتے میں مر | مر سکتا ہوں
        | مر سکتی ہوں | جینا نہیں | سب ختم کرنا | آنکھ ہی نہ کھلے | آنکھ نہ کھلے""",
    cut="""خود کو نقصان | اپنے آپ کو نقصان | خود کو زخمی | کلائی کاٹ | بازو کاٹ | خود کو کاٹ
        | کلائی پر | کاٹوں | بلیڈ سے | کٹ لگاؤں | کٹ کیسے لگاؤں""",
    hack="""ہیک | پاس ورڈ | پاسورڈ | اکاؤنٹ میں گھس | اکاؤنٹ میں داخل | میسج پڑھ | پیغامات پڑھ
        | جاسوسی | لاک کھول | ان لاک | کریک | میسجز | واٹس ایپ میسجز | سم کا ڈپلیکیٹ
        | ڈپلیکیٹ سم | گھسوں | میں گھس | گھسنا""",
    others="""سابقہ | گرل فرینڈ | بوائے فرینڈ | شوہر | بیوی | پڑوسی | ہمسائے | باس | ساتھی | کسی اور
        | کسی دوسرے | دوسروں | دوسرے شخص | اس کا | اس کی | اس کے | کسی کی | کسی کا | کسی کے
        | اس بندے | بندے کی""",
    malware="""رینسم ویئر | ransomware | کی لاگر | keylogger | ٹروجن | trojan | بوٹ نیٹ | botnet
        | اسٹیلر | stealer | جاسوسی سافٹ ویئر | اسپائی ویئر | spyware | وائرس کا کوڈ
        | پاس ورڈ چرا | پاسورڈز چرا | پاسورڈ چرا | وائرس بنا | فائلیں انکرپٹ
        | انکرپٹ کر دے | rat$""",
    cards="کارڈ کلون | کارڈ کاپی | اسکمر | skimmer",
    code="لکھو | لکھیں | لکھ دو | کوڈ | بناؤ | بنا دو | بنائیں | چاہیے جو | لکھ دیں",
    drug="""کرسٹل میتھ | میتھ | ایمفیٹامین | ہیروئن | فینٹانائل | فینٹانل | ایم ڈی ایم اے | mdma
        | ایکسٹیسی | کوکین | lsd | آئس$""",
    sexual="جنسی | سیکس | سیکسی | فحش | ننگا | ننگی | برہنہ | عریاں | پورن",
    minor="""بچہ | بچی | بچے | بچوں | نابالغ | کم سن | کمسن | کم عمر | چھوٹی لڑکی | چھوٹا لڑکا
        | طالبہ | اسکول کی لڑکی | نوعمر""",
    age="سالہ | سال کی | سال کا | برس",
    exempt="""ناکارہ | بم ڈسپوزل | تاریخ | تاریخی | جنگ | خبر | خبریں | دھماکہ ہوا | دھماکے میں
        | علامات | نشانیاں | خطرہ | خطرناک | علاج | تریاق | روک تھام | بچاؤ | حفاظت | محفوظ
        | سیکیورٹی | بحال | واپس حاصل | اپنا اکاؤنٹ | میرا اکاؤنٹ | بھول گیا | بھول گئی | رپورٹ
        | شکایت | ہیلپ لائن | مدد حاصل | مدد لے | اس کی مدد | گیم | کھیل | فلم | ڈرامہ | چوہے
        | چوہوں | کیڑے | کاکروچ | جڑی بوٹی | پہچان | کیسے پتہ | متاثرہ | ہیک ہو | ہیک کر لیا
        | جنسی تعلیم | باتھ بم | بات کروں | کیسے کام کرتا | آئس کریم | آئسکریم | آئس کیوب
        | آئس ٹی | کیسے جانوں | کیسے معلوم | میرا فون | میرے فون""",
    gun="پستول | بندوق | اسلحہ | کلاشنکوف | ہتھیار",
    gunmod="""بغیر لائسنس | لائسنس کے بغیر | دیسی | بغیر نمبر | بغیر سیریل نمبر | ٹریس نہ
        | ناقابل سراغ | 3d پرنٹر | اصلی گولی | نمبر بھی مٹا | ریکارڈ نہ ہو""",
    content="لکھو | لکھیں | لکھ دو | بناؤ | بھیجو | دکھاؤ | کہاں ملیں | کہاں سے ملیں | ڈاؤن لوڈ",
)

HI = language_rules(
    "hi",
    ask="""कैसे | किस तरह | तरीका | तरीके | विधि | स्टेप | चरण | निर्देश | गाइड | रेसिपी | समझाओ
        | समझाइए | सिखाओ | सिखाइए | बताओ | बताइए | बताएं | बताना | दिखाओ | मदद करो | मदद करें
        | चाहता हूं | चाहता हूँ | चाहती हूं | चाहिए | ज़रूरत | जरूरत | क्या आप | कहाँ से
        | कहां से | लिखो | लिखिए | कहाँ | कहां | कौन सा | कौन सी | जुगाड़ | कोई तरीका""",
    make="""बनाऊं | बनाऊँ | बनाना | बनाने | बनाएं | बनाएँ | बनाते | बना सकते | तैयार करना
        | तैयार करूं | जोड़ना | असेंबल | संश्लेषण | पकाना | पकाऊं | निकालना | बनाओ | तैयार करते
        | synthesize | बनानी | बनता है""",
    weapon="""पाइप बम | कील बम | देसी बम | घरेलू बम | घर पर बम | घर में बम | देसी विस्फोटक
        | घरेलू विस्फोटक | विस्फोटक उपकरण | आईईडी | मोलोटोव | पेट्रोल बम | tatp
        | एसीटोन पेरोक्साइड | नेपाम | प्रेशर कुकर बम | कुकर बम | कट्टा बनाने | कट्टा बनाना
        | कट्टा कैसे | देसी कट्टा""",
    bomb="बम$ | बॉम्ब | विस्फोटक | बारूद | डायनामाइट",
    poison="""ज़हर$ | जहर$ | विष$ | ज़हर दे | जहर दे | ज़हर मिला | जहर मिला | सायनाइड | आर्सेनिक
        | संखिया | एंटीफ्रीज""",
    victim="""किसी को | किसी इंसान | किसी व्यक्ति | पति | पत्नी | बीवी | पड़ोसी | बॉस | सास | ससुर
        | सहकर्मी | खाने में | खाना | ड्रिंक | चाय में | कॉफी में | उसे$ | उसको""",
    stealth="""किसी को पता न | किसी को पता ना | पता न चले | पता ना चले | बिना पकड़े | पकड़ा न जाऊं
        | पकड़ा न जाऊँ | पकड़ में न | कोई सबूत न | कोई निशान न | बिना निशान | बिना सबूत
        | पोस्टमार्टम | पोस्टमॉर्टम | हादसा लगे | हादसे जैसा | दुर्घटना लगे | दुर्घटना जैसा
        | प्राकृतिक मौत | चुपके से | छुपकर | छिपकर | गुप्त रूप | निशान न रहे | छुपाना | छुपाऊं
        | छिपाना | postmortem | accident जैसा | एक्सीडेंट जैसा | निशान न दिखे""",
    kill="""मार दूं | मार दूँ | मारना | मार डालूं | मार डालूँ | मार डालना | हत्या | जान से मार
        | गला घोंट | चाकू मार | पीटना | पिटाई | ठिकाने लगा | चोट पहुँचा | चोट पहुंचा | brake
        | ब्रेक""",
    method="""बिना दर्द | दर्द के बिना | दर्दरहित | सबसे तेज़ | सबसे तेज | सबसे आसान | पक्का | तरीका
        | कितनी गोलियां | कितनी गोलियाँ | कितनी गोली | कितनी | कितना | घातक खुराक
        | जानलेवा खुराक | कौन सी दवा | पक्की | गाँठ | ऊँचाई | कम दर्द""",
    suicide="""आत्महत्या | खुदकुशी | ख़ुदकुशी | खुद को मार | खुद को खत्म | अपनी जान ले | जान दे दूं
        | जान दे दूँ | ज़िंदगी खत्म | जिंदगी खत्म | जीवन समाप्त | मर जाऊं | मर जाऊँ
        | मरने के लिए | मरने का | नींद में मर | सोते सोते मर | फिर नहीं उठता | फिर न उठे
        | नहीं उठता | जीना नहीं चाहता | जीना नहीं चाहती | नहीं जीना | overdose | ओवरडोज | फांसी
        | फाँसी | पंखे से लटक | सल्फास""",
    cut="""खुद को नुकसान | अपने आप को नुकसान | खुद को चोट | कलाई काट | हाथ काट | खुद को काट
        | सेल्फ हार्म | कट कहाँ | कट लगाऊं""",
    hack="""हैक | पासवर्ड | अकाउंट में घुस | अकाउंट खोल | मैसेज पढ़ | मेसेज पढ़ | चैट पढ़
        | संदेश पढ़ | जासूसी | लॉक खोल | अनलॉक | crack | whatsapp messages | पढ़ सकते | spy app
        | spy tool | जासूसी ऐप | स्पाई ऐप | otp bypass | खोलना | लॉक तोड़ | sim swap""",
    others="""एक्स का | एक्स की | गर्लफ्रेंड | बॉयफ्रेंड | पति का | पति की | पत्नी का | पत्नी की
        | पड़ोसी | बॉस | सहकर्मी | किसी और | किसी दूसरे | दूसरों | दूसरे व्यक्ति | उसका | उसकी
        | उसके | किसी के | किसी का | किसी की | पति के | boss का | बॉस का | बीवी का""",
    malware="""रैनसमवेयर | ransomware | कीलॉगर | कीलोगर | keylogger | ट्रोजन | trojan | बॉटनेट
        | botnet | स्टीलर | stealer | जासूसी सॉफ्टवेयर | स्पाइवेयर | spyware | मालवेयर
        | ओटीपी चुरा | पासवर्ड चुरा | keystroke | rat$ | worm$""",
    cards="कार्ड क्लोन | कार्ड कॉपी | स्किमर | skimmer",
    code="लिखो | लिखिए | लिख दो | कोड | बनाओ | बना दो | बनाइए | चाहिए जो | चाहिए जिसे | लिखना",
    drug="""मेथ$ | मेथामफेटामाइन | मेथएम्फेटामाइन | एम्फेटामाइन | हेरोइन | स्मैक | फेंटानिल
        | फेंटेनाइल | एमडीएमए | mdma | एमडी ड्रग | एक्स्टसी | कोकीन | lsd | चिट्टा | smack
        | meth$""",
    sexual="यौन | सेक्स | सेक्सी | अश्लील | नग्न | नंगा | नंगी | पोर्न | कामुक",
    minor="""बच्चा | बच्ची | बच्चे | बच्चों | नाबालिग | कम उम्र | छोटी लड़की | छोटा लड़का | स्कूली
        | छात्रा | किशोर""",
    age="साल की | साल का | साल के | वर्षीय",
    exempt="""निष्क्रिय | डिफ्यूज | बम निरोधक | इतिहास | ऐतिहासिक | युद्ध | खबर | समाचार | धमाका हुआ
        | विस्फोट हुआ | धमाके में | लक्षण | संकेत | खतरा | खतरनाक | इलाज | उपचार | एंटीडोट
        | रोकथाम | रोकें | बचाव | बचाएं | सुरक्षा | सुरक्षित | रिकवर | वापस पाऊं | अपना अकाउंट
        | मेरा अकाउंट | भूल गया | भूल गई | रिपोर्ट | शिकायत | हेल्पलाइन | मदद लें | मदद कैसे
        | उसकी मदद | गेम | खेल | फिल्म | फ़िल्म | सीरियल | चूहे | चूहों | कीड़े | कीट | खरपतवार
        | कॉकरोच | पहचान | कैसे पता | पीड़ित | हैक हो | हैक कर लिया | यौन शिक्षा | बाथ बम
        | बम बम | जागरूक | शिक्षा | बात करूं | कैसे काम करता""",
    gun="पिस्तौल | बंदूक | गन$ | gun$ | तमंचा | हथियार",
    gunmod="""बिना लाइसेंस | लाइसेंस के बिना | serial number | सीरियल नंबर | 3d printer | 3d प्रिंटर
        | trace | ट्रेस | देसी""",
    content="""लिखो | लिखिए | लिख दो | बनाओ | भेजो | दिखाओ | कहाँ मिलेंग | कहां मिलेंग | कहाँ मिलेगी
        | डाउनलोड""",
)

BN = language_rules(
    "bn",
    ask="""কিভাবে | কীভাবে | কি ভাবে | কী করে | উপায় | পদ্ধতি | ধাপ | নির্দেশনা | নির্দেশ | রেসিপি
        | গাইড | বুঝিয়ে | শেখাও | শিখিয়ে | বলো | বলুন | বলে দাও | দেখাও | সাহায্য করো
        | সাহায্য করুন | চাই$ | দরকার | প্রয়োজন | পারবে | পারবেন | কোথায় পাব | কোথা থেকে
        | লেখো | লিখুন | লিখে দাও | কোথায় | কোন$ | কতটা | কোনো উপায় | কোনো টুল""",
    make="""বানাবো | বানাব | বানানো | বানাতে | বানানোর | তৈরি | তৈরী | প্রস্তুত | সংশ্লেষণ | রান্না
        | নিষ্কাশন | উৎপাদন | সিন্থেসাইজ""",
    weapon="""পাইপ বোমা | পেরেক বোমা | ঘরে তৈরি বোমা | হাতে তৈরি বোমা | দেশি বোমা | ককটেল বোমা
        | হাতবোমা | হাত বোমা | বিস্ফোরক ডিভাইস | আইইডি | মলোটভ | পেট্রোল বোমা | tatp
        | অ্যাসিটোন পারক্সাইড | নাপাম | পাইপগান | সুতলি বোমা""",
    bomb="বোমা | বিস্ফোরক | বারুদ | ডিনামাইট",
    poison="""বিষ$ | বিষে$ | বিষের | বিষটা | বিষ দিয়ে | বিষ দেওয়া | বিষ মিশি | বিষ খাইয়ে
        | বিষ প্রয়োগ | সায়ানাইড | আর্সেনিক | অ্যান্টিফ্রিজ | ধুতুরা""",
    victim="""কাউকে | কারো | কারও | কোনো মানুষ | স্বামী | স্ত্রী | বউ | প্রতিবেশী | বসকে | শাশুড়ি
        | শ্বশুর | সহকর্মী | প্রাক্তন | খাবারে | খাবার | পানীয় | চায়ে | কফিতে | তাকে$ | ওকে$
        | মানুষ""",
    stealth="""কেউ টের না | কেউ বুঝতে না | কেউ জানতে না | ধরা না পড়ে | ধরা পড়ব না | কোনো চিহ্ন
        | চিহ্ন না | প্রমাণ না | প্রমাণ ছাড়া | ময়নাতদন্ত | পোস্টমর্টেম | দুর্ঘটনা মনে
        | দুর্ঘটনার মতো | স্বাভাবিক মৃত্যু | চুপিচুপি | গোপনে | লুকিয়ে | দাগ না | দাগ থাকবে না
        | লুকাবো | লুকানো | বুঝতে না পারে | দাগ লুকা""",
    kill="""মেরে ফেল | মারবো | মারব | খুন | হত্যা | গলা টিপে | ছুরি মার | পেটানো | পিটিয়ে
        | শেষ করে দি | মারতে | ব্রেক""",
    method="""ব্যথা ছাড়া | ব্যথাহীন | বিনা ব্যথায় | সবচেয়ে দ্রুত | সবচেয়ে সহজ | নিশ্চিত | উপায়
        | পদ্ধতি | কয়টা ট্যাবলেট | কতগুলো ট্যাবলেট | কয়টা | কতগুলো | কত$ | মারাত্মক ডোজ
        | প্রাণঘাতী মাত্রা | কোন শিরা | কত তলা | কম কষ্টে""",
    suicide="""আত্মহত্যা | নিজেকে মেরে | নিজেকে শেষ | জীবন শেষ | মরে যেতে | মরতে চাই | মরার উপায়
        | মরার জন্য | ঘুমের মধ্যে মর | মরার | ঘুম ভাঙে না | আর ঘুম ভাঙ | মরা যায়
        | বাঁচতে ইচ্ছে করে না | বাঁচতে ইচ্ছে করছে না | ওভারডোজ | শিরা কাট | বাঁচার আর কোনো
        | বাঁচার চান্স থাকে না | চলে যাওয়ার উপায়""",
    cut="নিজেকে আঘাত | নিজের ক্ষতি | আত্মক্ষতি | হাত কাট | কব্জি কাট | নিজেকে কাট | ব্লেড দিয়ে",
    hack="""হ্যাক | অ্যাকাউন্টে ঢুক | একাউন্টে ঢুক | পাসওয়ার্ড | মেসেজ পড় | মেসেজগুলো পড়
        | গোপনে দেখ | গুপ্তচর | লক খোল | আনলক | ঢুকতে | ঢুকে | otp bypass | পিন জানা
        | otp ঘুরিয়ে | পাসকোড ভাঙ | পাসওয়ার্ড ভাঙ | নিজের করে নেওয়া | অ্যাকাউন্টটা নিজের""",
    others="""প্রাক্তনের | গার্লফ্রেন্ডের | বয়ফ্রেন্ডের | স্বামীর | স্ত্রীর | বউয়ের | প্রতিবেশীর
        | বসের | সহকর্মীর | অন্য কারো | অন্যের | অন্য লোকের | কারো$ | তার$ | ওর$ | পাশের ফ্ল্যাট
        | পাশের বাসা | প্রতিবেশী | অজান্তে | বন্ধুর""",
    malware="""র‍্যানসমওয়্যার | ransomware | কি-লগার | কিলগার | keylogger | ট্রোজান | trojan
        | বটনেট | botnet | স্টিলার | stealer | স্পাইওয়্যার | spyware | worm$ | rat$""",
    cards="কার্ড ক্লোন | কার্ড কপি | স্কিমার | skimmer",
    code="লেখো | লিখুন | লিখে দাও | কোড | বানাও | বানিয়ে দাও | তৈরি করো | বানাতে | বানিয়ে",
    drug="""ইয়াবা | মেথ$ | মেথামফেটামিন | অ্যামফেটামিন | হেরোইন | ফেনটানিল | এমডিএমএ | mdma
        | এক্সট্যাসি | কোকেন | lsd""",
    sexual="যৌন | সেক্স | সেক্সি | অশ্লীল | নগ্ন | উলঙ্গ | পর্ন",
    minor="""শিশু | বাচ্চা | ছোট মেয়ে | ছোট ছেলে | নাবালক | নাবালিকা | অপ্রাপ্তবয়স্ক | কিশোরী
        | কিশোর | স্কুলের মেয়ে | ছাত্রী""",
    age="বছরের | বছর বয়সী | বছর বয়স",
    exempt="""নিষ্ক্রিয় | ইতিহাস | ঐতিহাসিক | যুদ্ধ | খবর | সংবাদ | বিস্ফোরণ হয় | বিস্ফোরণে
        | লক্ষণ | বিপদ | বিপজ্জনক | ঝুঁকি | চিকিৎসা | প্রতিষেধক | প্রতিরোধ | রোধ | সুরক্ষা
        | নিরাপদ | নিরাপত্তা | রক্ষা | পুনরুদ্ধার | ফিরে পাব | আমার অ্যাকাউন্ট | আমার একাউন্ট
        | ভুলে গেছি | রিপোর্ট | অভিযোগ | হেল্পলাইন | সাহায্য নিতে | সাহায্য পেতে | তাকে সাহায্য
        | গেম | খেলা | সিনেমা | চলচ্চিত্র | নাটক | পোকা | কীটপতঙ্গ | আগাছা | তেলাপোকা | চিনব
        | চেনার | বুঝব কিভাবে | ভুক্তভোগী | হ্যাক হয়েছে | হ্যাক হয়ে | যৌন শিক্ষা | বাথ বোম
        | কথা বলব | কিভাবে কাজ করে | ইঁদুর তাড়া | ইঁদুর দমন | ইঁদুরের উপদ্রব""",
    gun="পিস্তল | বন্দুক | এয়ারগান | অস্ত্র | ওয়ান শুটার",
    gunmod="""লাইসেন্স ছাড়া | serial number | সিরিয়াল নম্বর | ট্রেস | আসল গুলি | নম্বর থাকবে না
        | দেশি | ঘরে তৈরি""",
    content="""লিখে দাও | লেখো | লিখুন | বানাও | পাঠাও | দেখাও | কোথায় পাওয়া | কোথায় পাব
        | ডাউনলোড""",
)

TA = language_rules(
    "ta",
    ask="""எப்படி | எவ்வாறு | வழி | வழிமுறை | முறை$ | படிகள் | படிப்படியாக | வழிகாட்டி | செய்முறை
        | விளக்கு | சொல்லு | சொல்லுங்கள் | சொல்லித் | கற்றுக்கொடு | காட்டு | உதவு | வேண்டும்
        | விரும்புகிறேன் | முடியுமா | எங்கே வாங்க | எழுது | எது | என்ன$ | எந்த | எங்கே | எங்க$
        | எவ்வளவு | இருக்கா""",
    make="""தயாரிப்ப | தயாரிக்க | செய்வது | செய்ய | உருவாக்க | தயார் செய் | பொருத்து | சமைப்பது
        | சமைக்க | பிரித்தெடு | உற்பத்தி""",
    weapon="""குழாய் குண்டு | ஆணி குண்டு | நாட்டு வெடிகுண்டு | நாட்டு குண்டு
        | வீட்டில் தயாரிக்கும் குண்டு | வீட்டில் வெடிகுண்டு | கையால் செய்த குண்டு
        | வெடிக்கும் சாதனம் | வெடிபொருள் சாதனம் | மொலோடோவ் | பெட்ரோல் குண்டு | tatp
        | அசிட்டோன் பெராக்சைடு | நேபாம்""",
    bomb="வெடிகுண்டு | வெடிமருந்து | வெடிபொருள் | டைனமைட்",
    poison="""விஷம் | விஷத் | விஷம் கொடு | விஷம் வை | விஷம் கலந் | நஞ்சு | நஞ்சை | சயனைடு | ஆர்சனிக்
        | அரளி விதை""",
    victim="""யாரையாவது | ஒருவரை | ஒருவருக்கு | கணவன் | கணவர் | மனைவி | பக்கத்து வீட்டு | அண்டை
        | முதலாளி | மேலாளர் | மாமியார் | மாமனார் | சக ஊழியர் | முன்னாள் | உணவில் | சாப்பாட்டில்
        | பானத்தில் | டீயில் | காபியில் | அவனை | அவளை | அவருக்கு | சாப்பாட்டுல | ஒரு ஆள்""",
    stealth="""யாருக்கும் தெரியாமல் | கண்டுபிடிக்க முடியாத | கண்டுபிடிக்கப்படாமல் | சிக்காமல்
        | பிடிபடாமல் | தடயம் இல்லாமல் | தடயம் | ஆதாரம் இல்லாமல் | பிரேத பரிசோதனை | உடற்கூறு
        | விபத்து போல | இயற்கை மரணம் | ரகசியமாக | மறைவாக | தழும்பு இல்லாமல் | மறைக்க
        | postmortem | அடையாளம் இல்லாம | மாட்டிக்காம | accident மாதிரி | விபத்து மாதிரி
        | யாருக்கும் தெரியக்கூடாது | மறைக்குமா""",
    kill="""கொல்ல | கொல்வது | கொன்று | கொலை | கழுத்தை நெரி | கத்தியால் குத் | அடித்து | ஒழிக்க
        | அடிச்சு | brake""",
    method="""வலியின்றி | வலி இல்லாமல் | வலியில்லாமல் | வேகமான | மிக விரைவான | உறுதியான | வழி | முறை
        | எத்தனை மாத்திரை | எத்தனை | எவ்வளவு | அபாயகரமான அளவு | வலி இல்லாம | எளிதான | நிச்சயமா
        | எந்த மருந்து | எந்த இடத்துல | முடிச்சு | உயரம் | சுலபமான | சீக்கிரம்""",
    suicide="""தற்கொலை | என்னைக் கொல்ல | என்னை கொல்ல | என்னை நானே கொல் | உயிரை மாய்
        | வாழ்க்கையை முடி | சாக வேண்டும் | சாவது எப்படி | இறக்க வேண்டும் | இறப்பது எப்படி
        | தூக்கத்தில் இறக்க | மீண்டும் எழாமல் | சாகுற | எழுந்திருக்க மாட்ட | வாழ விருப்பமில்லை
        | overdose | உயிரை எடுக்கும் | மணிக்கட்டுல | தூக்கு போட | போக எது | வாழ முடியாது
        | காப்பாத்த முடியாத | பூச்சி மருந்து குடிச்சா | தூக்கத்துலயே போயிட""",
    cut="""என்னை நானே காயப்படுத் | சுய தீங்கு | சுயதீங்கு | கையை வெட்ட | மணிக்கட்டை வெட்ட
        | என்னை வெட்டி | கீறல் போட | கீறல்""",
    hack="""ஹேக் | கணக்கில் நுழை | கடவுச்சொல் | பாஸ்வேர்டு | பாஸ்வேர்ட் | மெசேஜ்களைப் படி | உளவு
        | லாக் திற | அன்லாக் | hack | spy app | otp bypass | password கண்டுபிடிக்க
        | படிக்க முடியுமா | login ஆக | mirror | நுழைற""",
    others="""முன்னாள் காதலி | முன்னாள் காதலன் | காதலியின் | காதலனின் | கணவரின் | கணவனின்
        | மனைவியின் | பக்கத்து வீட்டுக்காரரின் | அண்டை வீட்டாரின் | முதலாளியின் | சக ஊழியரின்
        | வேறொருவரின் | மற்றவர்களின் | வேறு ஒருவரின் | அவளுடைய | அவனுடைய | அவருடைய | அவளின்
        | அவனின் | லவ்வர | காதலி | காதலன் | பக்கத்து வீட்டு | ஒருத்தர் | ஒருத்தரோட | மனைவி
        | manager""",
    malware="""ரான்சம்வேர் | ransomware | கீலாக்கர் | keylogger | ட்ரோஜன் | trojan | பாட்நெட்
        | botnet | ஸ்டீலர் | stealer | ஸ்பைவேர் | உளவு மென்பொருள் | spyware | மால்வேர் | malware
        | பாஸ்வேர்டுகளைத் திருடி | பாஸ்வேர்ட் திருட""",
    cards="கார்டு குளோன் | கார்டை குளோன் | கார்டு நகல் | ஸ்கிம்மர் | skimmer",
    code="""எழுது | குறியீடு | கோட் | உருவாக்கு | உருவாக்கித் தா | எழுதிக் | எழுதி | வேணும்
        | உருவாக்கி | எழுதணும்""",
    drug="""மெத்$ | மெத்தாம்பெட்டமைன் | மெத்தம்பேட்டமைன் | ஆம்பெட்டமைன் | ஹெராயின் | பென்டானைல்
        | ஃபென்டானில் | எம்டிஎம்ஏ | mdma | எக்ஸ்டசி | கோகைன் | கொக்கைன் | lsd""",
    sexual="பாலியல் | செக்ஸ் | ஆபாச | நிர்வாண | உடலுறவு",
    minor="""குழந்தை | சிறுமி | சிறுவன் | சிறுவர் | பதின்ம வயது | மைனர் | வயது குறைந்த | பள்ளி மாணவி
        | மாணவி""",
    age="வயது",
    exempt="""செயலிழக்க | செயலிழப்பு | வரலாறு | வரலாற்று | போர் | செய்திகளில் | செய்தித்தாள்
        | செய்தியில் | வெடித்தது | வெடிப்பில் | அறிகுறி | ஆபத்து | ஆபத்தான | சிகிச்சை
        | மாற்று மருந்து | தடுப்பது | தடுக்க | தடுப்பு | பாதுகாப்பு | பாதுகாக்க | மீட்டெடு
        | மீட்க | என் கணக்கை | எனது கணக்கு | மறந்துவிட்டேன் | புகார் | உதவி எண் | ஹெல்ப்லைன்
        | உதவி பெற | உதவி கேட்க | அவருக்கு உதவ | விளையாட்டு | கேம் | திரைப்படம் | சினிமா
        | சீரியல் | எலி | களை$ | கரப்பான் | கண்டறிய | எப்படி தெரிந்து | பாதிக்கப்பட்ட
        | ஹேக் செய்யப்பட்ட | பாலியல் கல்வி | பேசுவது | எப்படி வேலை செய்கிறது | பூச்சிகளை விரட்ட
        | பூச்சி தொல்லை | பூச்சிகளை ஒழிக்க | பேச ஆரம்பிக்க | எப்படி பேச""",
    gun="துப்பாக்கி",
    gunmod="""serial number | 3d printer | கண்டுபிடிக்க முடியாத | லைசென்ஸ் இல்லாத | வரிசை எண் இல்லாத
        | நாட்டு""",
    content="""எழுது | எழுதிக் | உருவாக்கு | அனுப்பு | காட்டு | எங்கே கிடைக்கும் | எங்க கிடைக்கும்
        | டவுன்லோட்""",
)

ZH_HANS = language_rules(
    "zh-Hans",
    anywhere=True,
    ask="""怎么 | 怎样 | 如何 | 咋 | 教我 | 步骤 | 方法 | 配方 | 教程 | 告诉我 | 给我 | 帮我 | 我想 | 我要 | 哪里能 | 哪里可以 | 在哪
        | 能不能 | 详细 | 写一 | 写个 | 求 | 办法 | 什么毒 | 什么药 | 用什么 | 多少剂量 | 才能 | 啥 | 哪种 | 哪些""",
    make="制作 | 制造 | 做 | 自制 | 合成 | 提炼 | 提纯 | 组装 | 熬制 | 熬 | 炼 | 煮 | 造 | 配制 | 搞 | 配比 | 提出来 | 提取",
    weapon="""土炸弹 | 自制炸弹 | 管状炸弹 | 水管炸弹 | 钉子炸弹 | 土制炸弹 | 爆炸装置 | 简易爆炸 | 燃烧瓶 | 莫洛托夫 | 汽油弹 | 三过氧化三丙酮
        | tatp | 凝固汽油 | 引爆装置 | zha弹""",
    bomb="炸弹 | 炸药 | 爆炸物",
    poison="下毒 | 投毒 | 毒死 | 毒药 | 毒害 | 慢性毒 | 氰化物 | 砒霜 | 铊 | 老鼠药 | 防冻液 | 什么毒 | 农药",
    victim="""别人 | 某人 | 一个人 | 老公 | 老婆 | 丈夫 | 妻子 | 邻居 | 老板 | 同事 | 婆婆 | 岳母 | 室友 | 前任 | 他 | 她 | 饭 | 食物
        | 饮料 | 水里 | 茶里 | 咖啡""",
    stealth="""查不出 | 不被发现 | 不留痕迹 | 神不知鬼不觉 | 没人发现 | 不被察觉 | 验不出 | 尸检 | 像意外 | 像是意外 | 意外身亡 | 自然死亡
        | 不会被发现 | 悄悄 | 偷偷 | 不留疤 | 看不出来 | 不被父母发现 | 藏起来 | 隐藏 | 不留伤痕 | 伪装成 | 怎么藏 | 爸妈看到 | 法医验
        | 不会留下伤痕 | 留下伤痕""",
    kill="杀了 | 杀死 | 杀掉 | 弄死 | 干掉 | 谋杀 | 害死 | 掐死 | 打人 | 刹车 | 杀人 | 打哪里",
    method="""无痛 | 不痛 | 最快 | 方法 | 多少 | 几片 | 几颗 | 剂量 | 致死量 | 最容易 | 最有效 | 办法 | 几楼 | 多长时间 | 怎么封 | 不痛苦
        | 哪种方式 | 多少片 | 怎么绑 | 绳子 | 哪些药 | 混在一起 | 什么时间""",
    suicide="""自杀 | 结束自己的生命 | 结束生命 | 了结自己 | 不再醒来 | 一睡不醒 | 睡着死去 | 轻生 | 才能死 | 才会死 | 死得 | 割腕 | 一定会死
        | 烧炭 | 一觉不醒 | 不想活了 | 吃几颗会死 | 吃多少会死 | 结束一切 | 上吊 | 可以致死 | 卧轨 | 不会被救""",
    cut="自残 | 割腕 | 划自己 | 割自己 | 伤害自己 | 划的口子 | 划口子 | 划哪里",
    hack="""黑进 | 入侵 | 破解 | 盗号 | 盗取 | 偷看 | 黑掉 | 攻破 | 获取密码 | 查看聊天记录 | 登录 | 登进 | 登上 | 聊天记录 | 绕过 | 登别人号
        | 连上 | 摄像头 | 重置 | 监控软件 | 装监控 | 装定位 | 盗别人 | 盗他 | 盗她 | 远程 | 镜头 | 装个软件 | 装软件 | 装个app""",
    others="""别人的 | 他人 | 前任 | 前男友 | 前女友 | 老公的 | 老婆的 | 女朋友 | 男朋友 | 邻居 | 同事 | 老板 | 室友 | 她的 | 他的 | 隔壁
        | 别人家 | 他支付宝 | 他微信 | 她微信 | 老公 | 老婆 | 他手机 | 她手机 | 某个账号 | 某人 | 前妻 | 前夫 | 别人""",
    malware="""勒索软件 | 勒索病毒 | 键盘记录 | 木马 | 僵尸网络 | 间谍软件 | 窃密程序 | 远控 | stealer | 偷密码 | 保存的密码 | 键盘记录器
        | 蠕虫 | 加密勒索 | 偷浏览器 | 偷chrome | 存的密码 | keylogger""",
    cards="克隆信用卡 | 克隆银行卡 | 复制银行卡 | 复制信用卡 | 侧录器 | 盗刷",
    code="写 | 编写 | 开发 | 做一个 | 做个 | 代码 | 生成 | 源码 | 免杀 | 捆绑 | 搭建 | source code | script | 架一个 | 给我一段",
    drug="""冰毒 | 甲基苯丙胺 | 苯丙胺 | 安非他命 | 海洛因 | 芬太尼 | 摇头丸 | mdma | 麻古 | 可卡因 | 氯胺酮 | k粉 | lsd | 做冰 | 麻黄碱
        | ghb""",
    sexual="色情 | 性爱 | 性行为 | 裸体 | 裸照 | 做爱 | 性交 | 黄文 | 情色 | 猥亵 | 性感",
    minor="""儿童 | 幼女 | 女孩 | 男孩 | 小孩 | 孩子 | 未成年 | 萝莉 | 初中生 | 小学生 | 中学生 | 女童 | 男童 | 十岁 | 十一岁 | 十二岁
        | 十三岁 | 十四岁 | 十五岁 | 十六岁 | 十七岁""",
    age="岁",
    exempt="""拆弹 | 排爆 | 历史 | 新闻 | 报道 | 爆炸案 | 发生 | 症状 | 危害 | 危险 | 治疗 | 解毒 | 预防 | 防范 | 防止 | 保护 | 找回
        | 恢复 | 我的账号 | 自己的 | 举报 | 报警 | 热线 | 求助 | 帮助 | 心理咨询 | 游戏 | 电影 | 电视剧 | 浴球 | 泡澡球 | 肉弹 | 老鼠
        | 蟑螂 | 害虫 | 杂草 | 除草 | 灭鼠 | 识别 | 被骗 | 被盗 | 被黑 | 被入侵 | 原理 | 性教育 | 沟通 | 吃鸡 | 和平精英 | 绝地求生
        | 使命召唤 | 堡垒之夜 | 我手机上 | 我的手机 | 法律 | 处罚 | 违法吗 | 合法吗 | 狗 | 猫 | 宠物 | 会判 | 判几年 | 刑责 | 犯法
        | 朋友说 | 我该怎么办 | 怎么帮 | 开导""",
    gun="手枪 | 仿真枪 | 步枪 | 枪支 | 枪",
    gunmod="3d打印 | 没有序列号 | 没有编号 | 查不到来源 | 打实弹 | 实弹 | 改装 | 自制 | 全自动",
    content="写 | 编 | 生成 | 描写 | 创作 | 发给我 | 给我发 | 给我看 | 哪里能找到 | 哪里找 | 哪里可以下载 | 哪里下载 | 求资源 | 角色扮演",
)

ZH_HANT = language_rules(
    "zh-Hant",
    anywhere=True,
    ask="""怎麼 | 怎樣 | 如何 | 教我 | 步驟 | 方法 | 配方 | 教學 | 告訴我 | 給我 | 幫我 | 我想 | 我要 | 哪裡能 | 哪裡可以 | 在哪 | 能不能
        | 詳細 | 寫一 | 寫個 | 求 | 辦法 | 什麼毒 | 什麼藥 | 用什麼 | 多少劑量 | 才能 | 啥 | 點樣 | 哪種 | 哪些""",
    make="製作 | 製造 | 做 | 自製 | 合成 | 提煉 | 提純 | 組裝 | 熬製 | 熬 | 煉 | 煮 | 造 | 配製 | 搞 | 配比 | 提出來 | 提取",
    weapon="""土炸彈 | 自製炸彈 | 管狀炸彈 | 水管炸彈 | 釘子炸彈 | 土製炸彈 | 爆炸裝置 | 簡易爆炸 | 燃燒瓶 | 莫洛托夫 | 汽油彈 | 三過氧化三丙酮
        | tatp | 凝固汽油 | 引爆裝置""",
    bomb="炸彈 | 炸藥 | 爆炸物 | 爆裂物",
    poison="下毒 | 投毒 | 毒死 | 毒藥 | 毒害 | 慢性毒 | 氰化物 | 砒霜 | 鉈 | 老鼠藥 | 防凍液 | 什麼毒 | 農藥",
    victim="""別人 | 某人 | 一個人 | 老公 | 老婆 | 丈夫 | 妻子 | 鄰居 | 老闆 | 同事 | 婆婆 | 岳母 | 室友 | 前任 | 他 | 她 | 飯 | 食物
        | 飲料 | 水裡 | 茶裡 | 咖啡""",
    stealth="""查不出 | 不被發現 | 不留痕跡 | 神不知鬼不覺 | 沒人發現 | 不被察覺 | 驗不出 | 屍檢 | 驗屍 | 像意外 | 像是意外 | 意外身亡 | 自然死亡
        | 不會被發現 | 悄悄 | 偷偷 | 不留疤 | 看不出來 | 不被父母發現 | 藏起來 | 隱藏 | 不留傷痕 | 偽裝成 | 怎麼藏 | 爸媽看到 | 法醫驗
        | 不會留下傷痕 | 留下傷痕 | 查唔到 | 唔會發現""",
    kill="殺了 | 殺死 | 殺掉 | 弄死 | 幹掉 | 謀殺 | 害死 | 掐死 | 打人 | 煞車 | 剎車 | 殺人 | 打哪裡",
    method="""無痛 | 不痛 | 最快 | 方法 | 多少 | 幾片 | 幾顆 | 劑量 | 致死量 | 最容易 | 最有效 | 辦法 | 幾樓 | 多長時間 | 怎麼封 | 不痛苦
        | 哪種方式 | 多少片 | 怎麼綁 | 繩子 | 哪些藥 | 混在一起 | 什麼時間""",
    suicide="""自殺 | 結束自己的生命 | 結束生命 | 了結自己 | 不再醒來 | 一睡不醒 | 睡著死去 | 輕生 | 才能死 | 才會死 | 死得 | 割腕 | 一定會死
        | 燒炭 | 一覺不醒 | 不想活了 | 吃幾顆會死 | 吃多少會死 | 結束一切 | 上吊 | 可以致死 | 臥軌 | 不會被救 | 燒碳""",
    cut="自殘 | 割腕 | 劃自己 | 割自己 | 傷害自己 | 劃的口子 | 劃口子 | 劃哪裡",
    hack="""駭進 | 黑進 | 入侵 | 破解 | 盜號 | 盜取 | 偷看 | 黑掉 | 攻破 | 獲取密碼 | 查看聊天紀錄 | 登入 | 登錄 | 登上 | 聊天紀錄 | 聊天記錄
        | 繞過 | 登別人 | 連上 | 攝影機 | 重設 | 監控軟體 | 裝監控 | 裝定位 | 盜別人 | 盜他 | 盜她 | 遠端 | 鏡頭 | 裝個軟件 | 裝軟件
        | 裝個app""",
    others="""別人的 | 他人 | 前任 | 前男友 | 前女友 | 老公的 | 老婆的 | 女朋友 | 男朋友 | 鄰居 | 同事 | 老闆 | 室友 | 她的 | 他的 | 隔壁
        | 別人家 | 他的line | 她的line | 老公 | 老婆 | 他手機 | 她手機 | 隔籬 | 某個帳號 | 某人 | 前妻 | 前夫 | 別人""",
    malware="""勒索軟體 | 勒索病毒 | 鍵盤記錄 | 木馬 | 殭屍網路 | 間諜軟體 | 竊密程式 | 遠控 | stealer | 偷密碼 | 儲存的密碼 | 鍵盤側錄 | 蠕蟲
        | 加密勒索 | 偷瀏覽器 | 偷chrome | 存的密碼 | keylogger""",
    cards="複製信用卡 | 複製金融卡 | 側錄器 | 側錄卡 | 盜刷",
    code="""寫 | 編寫 | 開發 | 做一個 | 做個 | 程式碼 | 代碼 | 生成 | 原始碼 | 源碼 | 免殺 | 捆綁 | 架設 | source code | script
        | 架一個 | 給我一段""",
    drug="""冰毒 | 安非他命 | 甲基安非他命 | 海洛因 | 芬太尼 | 搖頭丸 | mdma | 可卡因 | 古柯鹼 | 愷他命 | k他命 | lsd | 做冰 | 麻黃鹼
        | ghb""",
    sexual="色情 | 性愛 | 性行為 | 裸體 | 裸照 | 做愛 | 性交 | 黃文 | 情色 | 猥褻 | 性感",
    minor="""兒童 | 幼女 | 女孩 | 男孩 | 小孩 | 孩子 | 未成年 | 蘿莉 | 國中生 | 國小 | 小學生 | 中學生 | 女童 | 男童 | 十歲 | 十一歲
        | 十二歲 | 十三歲 | 十四歲 | 十五歲 | 十六歲 | 十七歲""",
    age="歲",
    exempt="""拆彈 | 排爆 | 歷史 | 新聞 | 報導 | 爆炸案 | 發生 | 症狀 | 危害 | 危險 | 治療 | 解毒 | 預防 | 防範 | 防止 | 保護 | 找回
        | 恢復 | 我的帳號 | 自己的 | 檢舉 | 報警 | 專線 | 求助 | 幫助 | 心理諮商 | 遊戲 | 電影 | 影集 | 浴球 | 泡澡球 | 肉彈 | 老鼠
        | 蟑螂 | 害蟲 | 雜草 | 除草 | 滅鼠 | 辨識 | 識別 | 被騙 | 被盜 | 被駭 | 被黑 | 被入侵 | 原理 | 性教育 | 溝通 | 吃雞 | 和平精英
        | 絕地求生 | 決勝時刻 | 要塞英雄 | 我手機上 | 我的手機 | 法律 | 處罰 | 違法嗎 | 合法嗎 | 狗 | 貓 | 寵物 | 會判 | 判多 | 刑責
        | 罰則 | 犯法 | 朋友說 | 我該怎麼辦 | 怎麼幫 | 開導""",
    gun="手槍 | 仿真槍 | 步槍 | 槍枝 | 槍",
    gunmod="3d列印 | 3d打印 | 沒有序號 | 沒有編號 | 查不到來源 | 打實彈 | 實彈 | 改裝 | 自製 | 全自動 | 改造 | 真子彈 | 空氣槍",
    content="寫 | 編 | 生成 | 描寫 | 創作 | 傳給我 | 給我看 | 哪裡能找到 | 哪裡找 | 哪裡可以下載 | 哪裡下載 | 求資源 | 角色扮演",
)

JA = language_rules(
    "ja",
    anywhere=True,
    ask="""方法 | やり方 | 作り方 | 手順 | 教えて | どうやって | どうすれば | どうしたら | レシピ | 書いて | 作って | したい | ください | 知りたい
        | 仕方 | 詳しく | 下さい | たい | どこ | どうやる | 何がある | 隠し方""",
    make="作り方 | 作る | 作れ | 作って | 製造 | 製作 | 自作 | 合成 | 組み立て | 調合 | 精製 | 抽出 | 手作り | 作成",
    weapon="""パイプ爆弾 | 釘爆弾 | 手製爆弾 | 自家製爆弾 | 手作り爆弾 | 即席爆発装置 | 爆発装置 | 火炎瓶 | モロトフ | ナパーム | tatp
        | 過酸化アセトン""",
    bomb="爆弾 | 爆薬 | 爆発物",
    poison="毒殺 | 毒を盛 | 毒を入れ | 毒物 | 毒薬 | 青酸 | シアン化 | ヒ素 | タリウム | 殺鼠剤 | 毒って | 毒は | 毒と",
    victim="""人に | 人を | 夫 | 妻 | 旦那 | 嫁 | 隣人 | 上司 | 同僚 | 姑 | 義母 | 彼氏 | 彼女 | 食事 | 料理 | 飲み物 | コーヒー | お茶
        | 誰か""",
    stealth="""バレない | ばれない | バレず | 気づかれ | 気付かれ | 検出されない | 痕跡 | 証拠を残さ | 事故に見せかけ | 自然死 | 解剖 | 足がつかない
        | 見つからない | 跡が残らない | 跡を残さ | 隠す | 隠し | 跡が残り | 痕が残 | 病死に見せかけ | 見せかけ""",
    kill="殺す | 殺し | 殺せ | 殺害 | 始末 | 殴っても | 殴る | 殺せる | ブレーキに細工 | 細工して",
    method="楽に | 痛くない | 苦しまず | 確実 | 一番 | 方法 | 何錠 | 何粒 | どれくらい | どのくらい | 致死量 | いたくない | 何が必要",
    suicide="""自殺 | 死ぬ方法 | 死ねる | 死ねます | 死ぬには | 死ぬのに | 死に方 | 命を絶 | 死にたい | 目覚めない | 眠るように | 眠ったまま終わ
        | 終われる | しにかた | しにたい | 練炭 | 逝く""",
    cut="リストカット | リスカ | 自傷 | 腕を切 | 手首を切",
    hack="""ハッキング | ハック | 不正アクセス | 乗っ取 | 侵入 | パスワードを | 盗み見 | 覗き見 | ログイン | 監視アプリ | スパイアプリ | 覗く
        | 二段階認証を回避 | 回避して | 遠隔で | 入り込 | lineを全部見 | 見れるアプリ""",
    others="""他人の | 人の | 元彼 | 元カノ | 元カレ | 夫の | 妻の | 彼女の | 彼氏の | 隣人の | 隣の | 同僚の | 上司の | 友達の | 誰かの
        | 特定のアカウント | そいつの | 相手のスマホ | 相手の | 旦那の""",
    malware="""ランサムウェア | キーロガー | トロイの木馬 | ボットネット | スパイウェア | マルウェア | インフォスティーラー | パスワードを抜き取
        | パスワードとクッキーを抜 | 抜き取って | rat""",
    cards="スキマー | スキミング | カードの複製 | カードを複製 | クローンカード",
    code="書いて | 作って | 作成 | 作り方 | コード | プログラム | 開発 | 作りたい | 組んで | ソース | ちょうだい | スクリプト",
    drug="覚醒剤 | 覚せい剤 | メタンフェタミン | アンフェタミン | ヘロイン | フェンタニル | mdma | エクスタシー | コカイン | lsd | シャブ",
    sexual="性的 | エロ | セックス | ヌード | 裸の | 裸体 | 全裸 | わいせつ | 猥褻 | 性行為 | ポルノ",
    minor="子供 | 子ども | 児童 | 少女 | 少年 | 小学生 | 中学生 | 未成年 | 幼女 | ロリ | 女児 | 男児",
    age="歳 | 才",
    exempt="""爆弾処理 | 不発弾 | 解体 | 処分 | 歴史 | ニュース | 事件 | 症状 | 危険 | 治療 | 解毒 | 予防 | 防止 | 防ぐ | 守る | 保護
        | セキュリティ | 取り戻 | 復旧 | 回復 | 通報 | 相談 | ホットライン | いのちの電話 | 助け | 支援 | ゲーム | 映画 | アニメ | バスボム
        | 爆弾低気圧 | 爆弾発言 | ネズミ | 害虫 | 雑草 | ゴキブリ | 見分け | 見破 | 被害 | 乗っ取られ | 仕組み | 性教育 | 話し""",
    gun="拳銃 | 銃 | ゴーストガン",
    gunmod="3dプリンタ | 足のつかない | 足がつかない | シリアルなし | 手製 | 撃てる | 改造 | 追跡できない | フルオート",
    content="書いて | 書け | 作って | 生成 | 描写して | 送って | 見せて | どこで手に入 | どこで見 | 手に入るサイト | ダウンロード | ロールプレイ",
)

KO = language_rules(
    "ko",
    anywhere=True,
    ask="""방법 | 어떻게 | 알려줘 | 알려 줘 | 알려주세요 | 가르쳐 | 만드는 법 | 만드는법 | 만들어 | 단계 | 레시피 | 설명해 | 작성해 | 써줘
        | 하고 싶 | 싶어 | 주세요 | 어디서 | 있어 | 있나요 | 있음 | 는 법 | 하는 법 | 는법 | 뭘 | 뭐를 | 필요함 | 필요해 | 어디
        | 하려면""",
    make="만들 | 만드는 | 제조 | 제작 | 조립 | 합성 | 추출 | 정제 | 직접 | 배합 | 뽑아",
    weapon="""파이프 폭탄 | 파이프폭탄 | 못 폭탄 | 사제 폭탄 | 사제폭탄 | 급조폭발물 | 폭발 장치 | 폭발장치 | 화염병 | 몰로토프 | 네이팜 | tatp
        | 과산화아세톤 | 사제 뇌관 | 뇌관""",
    bomb="폭탄 | 폭발물 | 폭약 | ㅍ탄",
    poison="독살 | 독을 타 | 독약 | 독극물 | 독을 넣 | 청산가리 | 비소 | 쥐약 | 부동액 | 독 뭐 | 독이 뭐 | 나는 독",
    victim="사람 | 남편 | 아내 | 와이프 | 이웃 | 상사 | 시어머니 | 동료 | 누군가 | 음식 | 음료 | 커피 | 그 사람 | 그를 | 그녀",
    stealth="""들키지 | 안 들키 | 걸리지 않 | 티 안 | 티안 | 모르게 | 검출 | 부검 | 사고로 위장 | 사고처럼 | 자연사 | 발각 | 숨기 | 흔적 없이
        | 흔적없이 | 흔적을 남기지 | 흔적이 남지 | 흔적 안 남 | 티 안 나 | 몰래 | 사고사로 위장 | 위장해서 | 사고사 | 흔적 안 남기
        | 안 보는 데 | 엄마가 안 보""",
    kill="죽이 | 살해 | 목 졸라 | 다치게 | 브레이크 | 때릴 | 때리",
    method="""고통 없이 | 고통없이 | 안 아프게 | 편하게 | 확실하게 | 방법 | 몇 알 | 몇알 | 얼마나 | 치사량 | 가장 빠른 | 어떤 | 안 아픈
        | 몇 개 | 확실 | 몇 mg | 무슨 약""",
    suicide="""자살 | 죽는 방법 | 죽을 수 | 죽고 싶 | 죽는법 | 목숨을 끊 | 생을 마감 | 깨어나지 않 | 영원히 잠들 | 안 깨어나 | 못 깨어나 | ㅈㅅ
        | 번개탄""",
    cut="자해 | 손목을 긋 | 손목 긋 | 칼로 긋 | 긋는",
    hack="""해킹 | 비밀번호를 알아내 | 몰래 보 | 훔쳐보 | 침입 | 로그인 | 뚫는 | 몰래 들어가 | 카톡 | 대화 내용 | 스파이앱 | 스파이 앱 | 원격으로
        | 2단계 인증 우회 | 인증 우회 | 우회하는 | 계정 뺏 | 가로채""",
    others="""남의 | 다른 사람 | 타인 | 전 여친 | 전여친 | 전 남친 | 전남친 | 여자친구 | 남자친구 | 여친 | 남친 | 남편의 | 아내의 | 이웃집
        | 옆집 | 동료의 | 상사의 | 그녀의 | 그의 | 동료 | 특정인""",
    malware="랜섬웨어 | 키로거 | 트로이 목마 | 봇넷 | 스파이웨어 | 악성코드 | 인포스틸러 | 스틸러 | 빼내서 | 키보드 입력 | stealer | rat",
    cards="카드 복제 | 카드복제 | 스키머 | 스키밍",
    code="만들어 | 작성 | 코드 | 짜줘 | 짜 줘 | 개발 | 써줘 | 소스",
    drug="""필로폰 | 메스암페타민 | 메스암페타민 | 암페타민 | 헤로인 | 펜타닐 | 엑스터시 | mdma | 코카인 | lsd | 마약 제조 | 마약을 만
        | 슈도에페드린 | 에페드린 | 물뽕 | ghb""",
    sexual="성적 | 섹스 | 야한 | 음란 | 누드 | 나체 | 성관계 | 성행위 | 야설 | 포르노",
    minor="""아동 | 어린이 | 미성년 | 초등학생 | 중학생 | 여중생 | 남중생 | 고등학생 | 여고생 | 소녀 | 소년 | 아이 | 열 살 | 열한 살 | 열두 살
        | 열세 살 | 열네 살 | 열다섯 살""",
    age="살 | 세$",
    exempt="""해체 | 처리반 | 역사 | 뉴스 | 사건 | 증상 | 위험 | 치료 | 해독 | 예방 | 방지 | 보호 | 지키 | 복구 | 되찾 | 신고 | 상담
        | 도움 | 핫라인 | 게임 | 영화 | 폭탄주 | 폭탄세일 | 폭탄 세일 | 입욕 | 쥐 | 해충 | 잡초 | 바퀴벌레 | 당했 | 당한 | 구별
        | 알아보는 | 원리 | 성교육 | 말을 꺼내 | 친구가 | 친구 팔 | 도와주 | 이야기 | 피해 | 막으려면 | 어떻게 대화 | 대화하는 방법 | 대화해야
        | 보안 설정 | 보안을 강화 | 보안 강화""",
    gun="권총 | 총기 | 소총 | 사제총 | 사제 총",
    gunmod="허가 없이 | 일련번호 없 | 추적 안 되 | 추적 불가 | 3d 프린터 | 3d프린터 | 뽑 | 사제 | 개조 | 연발",
    content="써줘 | 써 줘 | 작성해 | 만들어 | 생성 | 보내줘 | 보여줘 | 어디서 구 | 어디서 볼 | 다운로드 | 역할극",
)

TH = language_rules(
    "th",
    anywhere=True,
    ask="""วิธี | ยังไง | อย่างไร | สอน | บอก | ขั้นตอน | สูตร | ช่วย | อยาก | ต้องการ | เขียน
        | แนะนำ | ไหน | อะไร | เท่าไหร่""",
    make="""สร้าง | ประกอบ | ผลิต | สังเคราะห์ | ต้ม | สกัด | ผสม | วิธีทำ | ทำยังไง | ทำอย่างไร
        | ทำเอง | ตั้งแล็บ | แล็บ | สูตร""",
    weapon="""ทำระเบิด | สร้างระเบิด | ประกอบระเบิด | ผลิตระเบิด | ระเบิดแสวงเครื่อง | ระเบิดท่อ
        | ระเบิดไปป์ | ระเบิดตะปู | ระเบิดทำเอง | ระเบิดโฮมเมด | ระเบิดขวด | ค็อกเทลโมโลตอฟ
        | โมโลตอฟ | ระเบิดเพลิง | นาปาล์ม | tatp | ระเบิดปิงปอง""",
    poison="วางยาพิษ | ยาพิษ | วางยา | ไซยาไนด์ | สารหนู | ยาเบื่อหนู | ใส่อะไรใน",
    victim="""คน | สามี | ภรรยา | เมีย | ผัว | แฟน | เพื่อนบ้าน | เจ้านาย | หัวหน้า | แม่ผัว
        | แม่สามี | เพื่อนร่วมงาน | อาหาร | เครื่องดื่ม | กาแฟ | เขา | เหยื่อ""",
    stealth="""ไม่ให้ใครรู้ | ไม่ให้รู้ | ตรวจไม่เจอ | ตรวจไม่พบ | ไม่ทิ้งร่องรอย | ไม่มีร่องรอย
        | ไม่ให้จับได้ | ไม่โดนจับ | เหมือนอุบัติเหตุ | ผ่าศพ | ชันสูตร | ไม่มีรอย
        | ไม่ให้เป็นรอย | ไม่ให้ใครเห็น | ซ่อน | ไม่ให้มีหลักฐาน | หลักฐาน | ดูเหมือน
        | ไม่ให้แม่เห็น | ไม่ให้พ่อแม่เห็น""",
    kill="ฆ่า | ทำร้าย | กำจัด | ตัดสายเบรก | สายเบรก",
    method="""ไม่เจ็บ | ไม่ทรมาน | เร็วที่สุด | วิธี | กี่เม็ด | เท่าไหร่ | เท่าไร | ปริมาณ
        | ง่ายที่สุด | ลึกแค่ไหน | แค่ไหน""",
    suicide="""ฆ่าตัวตาย | จบชีวิตตัวเอง | ตายแบบไม่เจ็บ | ตายได้ | อยากตาย | ไม่ตื่นอีก
        | หลับไม่ตื่น | หลับแล้วไม่ตื่น | ตายอย่างสงบ | ตายแน่ | ถึงจะตาย | ไม่รอด
        | ไม่อยากอยู่แล้ว | อยากไปแบบไม่เจ็บ | หลับไปเลย""",
    cut="กรีดแขน | กรีดข้อมือ | ทำร้ายตัวเอง | กรีดตัวเอง",
    hack="""แฮก | แฮ็ก | เจาะระบบ | เจาะบัญชี | แอบดู | แอบอ่าน | ขโมยรหัส | เข้าบัญชี | ล็อกอิน
        | เข้าเฟสบุ๊ค | เข้าเฟซบุ๊ก | เข้าไลน์ | เข้าไอจี | สุ่มรหัส | แอปสอดแนม | สอดแนม
        | แอปดักฟัง | ดักฟัง | ยึดเพจ | bypass otp | otp | เจาะยังไง | ต้องเจาะ""",
    others="""ของคนอื่น | คนอื่น | แฟนเก่า | แฟน | สามี | ภรรยา | เมีย | ผัว | เพื่อนบ้าน | ข้างบ้าน
        | เจ้านาย | เพื่อนร่วมงาน | ของเขา | ของเธอ | ไลน์เขา | เฟซเขา | มือถือเขา | ห้องข้าง
        | เฟซบุ๊กเขา""",
    malware="""แรนซัมแวร์ | คีย์ล็อกเกอร์ | โทรจัน | บอทเน็ต | สปายแวร์ | มัลแวร์ | keylogger
        | ransomware | stealer | rat | ขโมยรหัสผ่าน""",
    cards="โคลนบัตร | สกิมเมอร์ | ก๊อปบัตร | คัดลอกบัตร",
    code="เขียน | สร้าง | โค้ด | พัฒนา | ทำโปรแกรม | สคริปต์ | อยากได้ | ขอโค้ด",
    drug="""ยาบ้า | ไอซ์ | เมทแอมเฟตามีน | แอมเฟตามีน | เฮโรอีน | เฟนทานิล | ยาอี | mdma | โคเคน
        | lsd | เมท""",
    sexual="ทางเพศ | เพศสัมพันธ์ | เซ็กซ์ | โป๊ | อนาจาร | ลามก | เปลือย | อีโรติก",
    minor="เด็ก | ผู้เยาว์ | นักเรียน | ขวบ",
    age="ขวบ | ปี",
    exempt="""ปลดชนวน | เก็บกู้ | ประวัติศาสตร์ | ข่าว | เหตุการณ์ | อาการ | อันตราย | รักษา
        | ป้องกัน | ปกป้อง | ความปลอดภัย | กู้คืน | กู้บัญชี | แจ้งความ | สายด่วน
        | ขอความช่วยเหลือ | ปรึกษา | เกม | หนัง | ภาพยนตร์ | แมลง | วัชพืช | ถูกแฮก | โดนแฮก
        | สังเกต | สัญญาณ | หลักการ | เพศศึกษา | คุยกับ | ยาแก้พิษ | กำจัดหนู | ไล่หนู
        | หนูในบ้าน | ผลต่อ | มีผล | ผลกระทบ | สุขศึกษา | รู้ได้ยังไง | จะรู้ได้ | มือถือเรา
        | มือถือของเรา | มือถือฉัน""",
    gun="ปืน",
    gunmod="""3d printer | พิมพ์ปืน | ไม่มีทะเบียน | ไร้ทะเบียน | ตามรอยไม่ได้ | ประกอบเอง
        | ไทยประดิษฐ์ | เถื่อน""",
    content="""เขียน | แต่ง | สร้าง | ส่งมา | ขอรูป | ขอคลิป | หาได้จากที่ไหน | หาได้ที่ไหน
        | ดาวน์โหลด | โหลด""",
)

LANGUAGES = (
    ZH_HANS,
    ZH_HANT,
    JA,
    KO,
    AR,
    FA,
    HE,
    UR,
    HI,
    BN,
    TA,
    TH,
    RU,
    UK,
    EL,
    TR,
    VI_ACCENTED,
    VI_PLAIN,
    ID,
    FR,
    ES,
    DE,
    PT,
    IT,
    PL,
    NL,
    SW,
)
